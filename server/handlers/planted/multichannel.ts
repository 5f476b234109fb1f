/**
 * The planted faults and variations of the multichannelling handlers (server/handlers/multichannel.ts), one plan per
 * handler.
 *
 * A handler asks for its plan once (`const plan = planted.unlocalize(ctx.faults)`) and consults it at named points of
 * the contract's code: a hook takes the value the contract computed there and returns the one the handler goes on
 * with, or (a hook that returns nothing) may throw or change state where a fault does. Where the contract refuses and
 * a fault or variation answers instead, the hook is handed the refusal and gives the answer: with every switch off it
 * throws the refusal it was given. Otherwise, with every switch off each hook gives back what it was given and does
 * nothing else, so the handler file reads as the contract, and this file, which only ever differs from the contract,
 * is left out of the mutation run (scripts/mutation).
 */
import { masterVariant, removeObject, setsBelow, setTags, type Kind, type NodeRec, type Obj, type State } from '../../state.ts';
import { Refusal, type FaultSet, type OpRequest } from '../../types.ts';
import { bodyOf } from '../common.ts';
import type { DisinheritRequest, PushToMasterRequest, UnlocalizeRequest } from '../../../schemas/types.ts';
import type { copyObject } from '../mutations.ts';

/** Leaves members of a body unread: they are absent, as if never sent. */
function unread<T extends object>(b: T, ...members: (keyof T)[]): void {
  for (const m of members) delete b[m];
}

/** The kinds of a file id. */
const FILE_KINDS: readonly Kind[] = ['file', 'image'];

/** An answer of a handler. */
type Answer = Record<string, unknown>;

/** The hooks of the kinds an id may name. */
export interface KindsPlan {
  /** The kinds the id may name; the contract: `kinds`. */
  kinds(kinds: readonly Kind[]): readonly Kind[];
}

/** The hooks of the disinherit status the GET forms report (disinheritStatus). */
export interface StatusPlan {
  /**
   * The channels the object (its master variant, `master`) is reported disinherited for, before they are cut to
   * `channels`, those below its node; the contract: `own`, its own setting.
   */
  disinherited(own: readonly number[], state: State, master: Obj, channels: readonly number[]): readonly number[];
}

/** The status plan the GET forms share. */
function status(faults: FaultSet): StatusPlan {
  return {
    disinherited: (own, state, master, channels) => {
      // Planted (disinherit-get-empty): the GET forms answer an empty disinherit list.
      if (faults.has('disinherit-get-empty')) return [];
      // Variations: while it is excluded, none (excluded-reports-no-disinherit) or every channel (excluded-reports-every-channel).
      if (master.excluded && faults.has('excluded-reports-no-disinherit')) return [];
      if (master.excluded && faults.has('excluded-reports-every-channel')) return channels;
      // Variation (disinherit-effective-status): the folders above it add theirs (what the channel sees).
      if (!faults.has('disinherit-effective-status')) return own;
      const effective = new Set(own);
      for (let set = master.parentSet, depth = 0; set !== 0 && depth <= state.objects.size; depth++) {
        const folder = masterVariant(state, set);
        if (!folder) break;
        for (const c of folder.disinherit ?? []) effective.add(c);
        set = folder.parentSet;
      }
      return [...effective];
    },
  };
}

/**
 * The kinds /file/disinherit takes: "a list of ids (described as page IDs)". Any object id by default; page ids only
 * (variation file-disinherit-pages-only) or file ids only (variation file-disinherit-files-only).
 */
function fileDisinheritKinds(faults: FaultSet): KindsPlan {
  return {
    kinds: (kinds) => (faults.has('file-disinherit-pages-only') ? ['page'] : faults.has('file-disinherit-files-only') ? FILE_KINDS : kinds),
  };
}

/** GET /folder/disinherit/{id} (folderDisinheritGet). */
export function folderDisinheritGet(faults: FaultSet): StatusPlan & {
  /** The status answered for `obj` (the object the id names in the view); the contract: `status`, its master's. */
  status<T extends { disinheritDefault: boolean }>(status: T, state: State, obj: Obj): T;
} {
  return {
    ...status(faults),
    // Planted (disinherit-get-reads-copy): in a channel that localized the folder, the copy's own status, which no setter writes.
    status: (status, state, obj) =>
      faults.has('disinherit-get-reads-copy') && obj !== masterVariant(state, obj.channelSetId)
        ? { ...status, disinheritDefault: Boolean(obj.disinheritDefault) }
        : status,
  };
}

/** GET /folder/disinherit (folderDisinheritGetMany). */
export function folderDisinheritGetMany(faults: FaultSet): StatusPlan {
  return status(faults);
}

/** GET /file/disinherit (fileDisinheritGet). */
export function fileDisinheritGet(faults: FaultSet): StatusPlan & KindsPlan {
  return { ...status(faults), ...fileDisinheritKinds(faults) };
}

/** The hooks of setting exclusion and disinheritance (applyDisinherit). */
export interface SetPlan {
  /** The body as the handler reads it: a member a fault leaves unread is absent. */
  body(b: Partial<DisinheritRequest>): Partial<DisinheritRequest>;
  /** The objects the request sets, taken one by one as the handler reaches them; the contract: `objs`. */
  objects(objs: readonly Obj[], state: State, body: Partial<DisinheritRequest>): Iterable<Obj>;
  /** Whether a folder's content is set with it; the contract: `recursive`. */
  recursive(recursive: boolean | undefined): boolean | undefined;
  /** The nodes a disinherit or reinherit list may name for an object of node `own`; the contract: the channels below it. */
  channels(channels: number[], own: number): number[];
  /** Whether the request hides a target from every channel below its node; the contract: `exclude`. */
  hidesEverywhere(exclude: boolean | undefined): boolean | undefined;
  /** The refusal of hiding a target from a channel that holds a localized copy of it; the contract: it is thrown. */
  localizedThere(refusal: Refusal): void;
  /** Before the settings of `targets` change (every target checked); a fault may add targets. */
  changing(targets: Obj[], state: State): void;
  /** After `t` is excluded (`exclude` true) or no longer excluded. */
  excluded(t: Obj, exclude: boolean): void;
  /** After the disinherit list of `t` is set, `reinherit` taken out of it. */
  disinherited(t: Obj, reinherit: readonly number[]): void;
  /** After the settings of `targets` changed. */
  changed(targets: readonly Obj[]): void;
}

/** What a DisinheritRequest sets on an object, to tell whether a request changed anything. */
function multichannelSettings(obj: Obj): unknown[] {
  return [obj.excluded ?? false, obj.disinheritDefault ?? false, obj.disinherit ?? []];
}

/** The set plan; `listForm`: for the forms that take a list of ids. */
function set(faults: FaultSet, listForm: boolean): SetPlan {
  let before = '';
  let recursiveAsked = false;
  return {
    body: (sent) => {
      const b = { ...sent };
      // Planted: reinherit is read but changes nothing.
      if (faults.has('reinherit-ignored')) unread(b, 'reinherit');
      // Planted (disinherit-many-default-ignored): the list forms read no disinheritDefault.
      if (listForm && faults.has('disinherit-many-default-ignored')) unread(b, 'disinheritDefault');
      return b;
    },
    objects: function* (objs, state, body) {
      for (const obj of objs) {
        // Planted (disinherit-set-on-copy): in a channel that localized the object, its disinheritDefault lands on the copy.
        if (
          faults.has('disinherit-set-on-copy') &&
          obj !== (masterVariant(state, obj.channelSetId) ?? obj) &&
          typeof body.disinheritDefault === 'boolean'
        ) {
          obj.disinheritDefault = body.disinheritDefault;
          continue;
        }
        yield obj;
      }
    },
    // Planted (disinherit-always-recursive): the content of a folder follows it without `recursive`.
    recursive: (recursive) => {
      recursiveAsked = recursive === true;
      return recursive || faults.has('disinherit-always-recursive');
    },
    // Planted (disinherit-list-takes-own-node): a list may name the object's own node, which is no channel of it.
    channels: (channels, own) => (faults.has('disinherit-list-takes-own-node') ? [...channels, own] : channels),
    // Planted (disinherit-refused-when-localized): a localized copy anywhere stops the request, whatever it hides.
    hidesEverywhere: (exclude) => exclude || faults.has('disinherit-refused-when-localized'),
    localizedThere: (refusal) => {
      // Planted (hide-keeps-localized-copy): the object is hidden from the channel, whose localized copy stays listed there.
      if (!faults.has('hide-keeps-localized-copy')) throw refusal;
    },
    changing: (targets, state) => {
      // Planted (disinherit-recursive-reaches-channel-own): a recursive setting also reaches what a channel made itself below
      // the folder, objects of another node than the folder's.
      if (recursiveAsked && faults.has('disinherit-recursive-reaches-channel-own'))
        for (const t of targets.filter((o) => o.kind === 'folder'))
          for (const { set } of setsBelow(state, t.channelSetId)) {
            const m = masterVariant(state, set);
            if (m && m.nodeId !== t.nodeId && !targets.includes(m)) targets.push(m);
          }
      before = JSON.stringify(targets.map(multichannelSettings));
    },
    excluded: (t, exclude) => {
      // Variation: excluded from every channel, an object keeps no per-channel list.
      if (exclude && faults.has('exclude-clears-disinherit')) delete t.disinherit;
    },
    disinherited: (t, reinherit) => {
      // Planted (reinherit-leaves-disinherited): a list a reinherit empties keeps a mark no channel matches; the record stays disinherited.
      if (faults.has('reinherit-leaves-disinherited') && reinherit.length > 0 && !t.disinherit) t.disinherit = [0];
    },
    changed: (targets) => {
      // Variation: a request that changes nothing is refused (the settings were as asked already), and changes nothing.
      if (faults.has('disinherit-noop-refused') && JSON.stringify(targets.map(multichannelSettings)) === before)
        throw new Refusal('INVALIDDATA', 'the request changes nothing: the objects are excluded and disinherited as asked already', 'id');
    },
  };
}

/** POST /folder/disinherit/{id} (folderDisinheritSet). */
export function folderDisinheritSet(faults: FaultSet): SetPlan {
  return set(faults, false);
}

/** POST /folder/disinherit (folderDisinheritSetMany). */
export function folderDisinheritSetMany(faults: FaultSet): SetPlan {
  return set(faults, true);
}

/** POST /file/disinherit (fileDisinheritSet). */
export function fileDisinheritSet(faults: FaultSet): SetPlan & KindsPlan {
  return { ...set(faults, true), ...fileDisinheritKinds(faults) };
}

/** The hooks of localizing (localize). */
export interface LocalizePlan {
  /** Whether the request is refused as done already; the contract: `refused`, the channel holds `visible` itself. */
  refusesAgain(refused: boolean, visible: Obj): boolean;
  /** The answer when the channel holds `visible` itself already; the contract throws `refusal`. */
  localizedAlready(refusal: Refusal, visible: Obj): Answer;
  /** The state change that makes the channel's copy; the contract: `copy`. */
  copy(copy: typeof copyObject): typeof copyObject;
}

/** The localize plan both forms share. */
function localize(faults: FaultSet): LocalizePlan {
  return {
    // Planted (localize-again-copies): what the channel has localized already gets a second copy.
    refusesAgain: (refused, visible) => refused && !(visible.masterId !== undefined && faults.has('localize-again-copies')),
    localizedAlready: (refusal, visible) => {
      // Variation: localizing what the channel has localized already is done already.
      if (visible.masterId !== undefined && faults.has('localize-again-succeeds')) return {};
      throw refusal;
    },
    // Planted (localize-noop): the request is answered, the copy never made. Planted (localize-drops-tags): the copy is
    // made without the object's tags.
    copy: (copy) =>
      faults.has('localize-noop')
        ? (_state, source) => source
        : faults.has('localize-drops-tags')
          ? (state, source, changes) => {
              const made = copy(state, source, changes);
              setTags(state, made, undefined);
              return made;
            }
          : copy,
  };
}

/** POST /folder/localize/{id} (folderLocalize); its variation folder-localize-other-body reads the body (server/planted/app.ts). */
export function folderLocalize(faults: FaultSet): LocalizePlan {
  return localize(faults);
}

/** POST /file/localize/{id} (fileLocalize). */
export function fileLocalize(faults: FaultSet): LocalizePlan {
  return localize(faults);
}

/** The hooks of POST /file/unlocalize/{id}. */
export interface UnlocalizePlan extends KindsPlan {
  /** The body as the handler reads it: a member a fault reads otherwise is replaced. */
  body(b: Partial<UnlocalizeRequest>): Partial<UnlocalizeRequest>;
  /** The object the id names (`obj`), before the channel is read. */
  named(obj: Obj): void;
  /** Whether a variant of the set is the channel's; the contract: `inChannel`, it is in the channel's node. */
  inChannel(inChannel: boolean): boolean;
  /** The answer when `channel` holds no localized `copy` of `obj` to remove; the contract throws `refusal`. */
  notLocalized(refusal: Refusal, state: State, obj: Obj, channel: NodeRec, copy: Obj | undefined): Answer;
  /** The objects removed; the contract: `remove`, the localized `copy` and, by `b`, the copies below it. */
  removed(remove: Obj[], state: State, copy: Obj, b: Partial<UnlocalizeRequest>): Obj[];
}

/** POST /file/unlocalize/{id} (unlocalize). */
export function unlocalize(faults: FaultSet): UnlocalizePlan {
  let read: Partial<UnlocalizeRequest> = {};
  return {
    // Variation (unlocalize-files-only): /file/unlocalize takes files and images; folders are unlocalized elsewhere.
    kinds: (kinds) => (faults.has('unlocalize-files-only') ? FILE_KINDS : kinds),
    body: (sent) => {
      const b = { ...sent };
      // Variation (unlocalize-takes-content): without `recursive` a folder's copies below go with it. Planted
      // (unlocalize-ignores-recursive-false): they go even when `recursive` is false. Either way every type goes.
      if (
        (b.recursive === undefined && faults.has('unlocalize-takes-content')) ||
        (!b.recursive && faults.has('unlocalize-ignores-recursive-false'))
      ) {
        b.recursive = true;
        unread(b, 'types');
      }
      read = b;
      return b;
    },
    named: (obj) => {
      // Planted (unlocalize-channel-from-copy): a copy's id names its own channel, whatever channel the body gives.
      if (faults.has('unlocalize-channel-from-copy') && obj.masterId !== undefined && read.channelId !== undefined)
        read.channelId = obj.nodeId;
      // Variations: only the localized copy's own id names what to unlocalize, or only the master's (with the channel).
      if (faults.has('unlocalize-copy-id-only') && obj.masterId === undefined)
        throw new Refusal('INVALIDDATA', `${obj.kind} ${obj.id} is no localized copy: name the copy to unlocalize`, 'id');
      if (faults.has('unlocalize-master-id-only') && obj.masterId !== undefined)
        throw new Refusal('INVALIDDATA', `${obj.kind} ${obj.id} is a localized copy: name its master and the channel`, 'id');
    },
    // Planted (unlocalize-first-copy): the first localized copy goes, whichever channel it is in.
    inChannel: (inChannel) => faults.has('unlocalize-first-copy') || inChannel,
    notLocalized: (refusal, state, obj, channel, copy) => {
      if (!copy) {
        // Planted (unlocalize-removes-local): an object local to the channel is taken for a copy and removed outright.
        const local = faults.has('unlocalize-removes-local')
          ? state.sets.get(obj.channelSetId)?.find((v) => v.nodeId === channel.id)
          : undefined;
        if (local) {
          removeObject(state, local);
          return {};
        }
        // Variation: nothing localized there is nothing to do.
        if (faults.has('unlocalize-nothing-succeeds')) return {};
      }
      throw refusal;
    },
    removed: (remove, state, copy, b) => {
      // Planted (unlocalize-keeps-copy): the request is answered, nothing removed.
      if (faults.has('unlocalize-keeps-copy')) return [];
      // Planted (unlocalize-takes-channel-own): below the folder the channel's own objects go with its copies.
      if (faults.has('unlocalize-takes-channel-own') && b.recursive && copy.kind === 'folder')
        remove.push(
          ...[...setsBelow(state, copy.channelSetId)].flatMap(({ set }) =>
            (state.sets.get(set) ?? []).filter((v) => v.nodeId === copy.nodeId && v.masterId === undefined),
          ),
        );
      // Planted (unlocalize-recursive-first-variant): below the folder the first variant of each set goes, whichever node
      // holds it: mostly the master's own object.
      if (faults.has('unlocalize-recursive-first-variant') && b.recursive && copy.kind === 'folder')
        remove.splice(
          1,
          Infinity,
          ...[...setsBelow(state, copy.channelSetId)].flatMap(({ set }) => state.sets.get(set)?.slice(0, 1) ?? []),
        );
      return remove;
    },
  };
}

/** The members of a file's content: what push2master-content-only pushes (the binary data and what describes it). */
const FILE_CONTENT = ['data', 'fileType', 'sizeX', 'sizeY'] as const;

/** The hooks of POST /file/push2master/{id}. */
export interface PushPlan {
  /** The channel the push is read in, by the body's `channelId` (the contract) or the node of the object the id names (`obj`). */
  channelId(channelId: number | undefined, obj: Obj): number | undefined;
  /** The object the id names (`obj`) in `channel`, before the master node is read. */
  named(obj: Obj, channel: NodeRec): void;
  /** The answer when `channel` holds nothing of its own to push; the contract throws `refusal`. */
  nothingToPush(refusal: Refusal): Answer;
  /** The channel's own variant found (`src`), before what is pushed is gathered by the body `b`. */
  source(src: Obj, channel: NodeRec, b: Partial<PushToMasterRequest>): void;
  /** The objects asked whether the master holds their folder; the contract: every one pushed (`items`). */
  checked(items: Obj[]): Obj[];
  /** The objects pushed; the contract: `items`. */
  pushed(items: Obj[]): Obj[];
  /** Whether an object moves into the master node; the contract: `local`, it exists only in the channel. */
  moves(local: boolean): boolean;
  /** The members of a variant that stay as they are when content is pushed into it; the contract: `kept`. */
  kept<K extends keyof Obj>(kept: readonly K[]): readonly K[];
  /** The content pushed from `from`; the contract: `content`, every member but the kept ones. */
  content(content: Partial<Obj>, from: Obj): Partial<Obj>;
  /** After the content of the channel's variant `o` is pushed into the master's. */
  contentPushed(state: State, o: Obj): void;
}

/** POST /file/push2master/{id} (push2master). */
export function push2master(faults: FaultSet): PushPlan {
  return {
    // Planted (push2master-channel-from-copy): a copy's id names its own channel, whatever channel the body gives.
    channelId: (channelId, obj) =>
      faults.has('push2master-channel-from-copy') && obj.masterId !== undefined && channelId !== undefined ? obj.nodeId : channelId,
    named: (obj, channel) => {
      // Variations: only the id of the channel's own object names what to push, or only the master's (with the channel).
      if (faults.has('push2master-copy-id-only') && obj.nodeId !== channel.id)
        throw new Refusal('INVALIDDATA', `${obj.kind} ${obj.id} is not an object of channel ${channel.id}: name the channel's copy`, 'id');
      if (faults.has('push2master-master-id-only') && obj.masterId !== undefined)
        throw new Refusal('INVALIDDATA', `${obj.kind} ${obj.id} is a localized copy: name its master and the channel`, 'id');
    },
    nothingToPush: (refusal) => {
      // Variation: nothing of the channel's own to push is nothing to do.
      if (faults.has('push2master-nothing-succeeds')) return {};
      throw refusal;
    },
    source: (src, channel, b) => {
      // Variation: an object that exists only in the channel has no master to push into.
      if (src.masterId === undefined && faults.has('push2master-local-refused'))
        throw new Refusal('INVALIDDATA', `${src.kind} ${src.id} exists only in channel ${channel.id}: it has no master to push into`, 'id');
      // Planted (push2master-content-500): the content below a folder is walked without the channel's view.
      if (faults.has('push2master-content-500') && b.recursive && src.kind === 'folder')
        throw new TypeError("Cannot read properties of undefined (reading 'nodeId')");
    },
    // Planted (push2master-orphans-local-file): no object is asked whether the master holds its folder.
    checked: (items) => (faults.has('push2master-orphans-local-file') ? [] : items),
    // Planted (push2master-noop): the request is answered, nothing pushed.
    pushed: (items) => (faults.has('push2master-noop') ? [] : items),
    // Planted (push2master-local-stays): an object local to the channel is pushed into itself and stays there.
    moves: (local) => local && !faults.has('push2master-local-stays'),
    // Planted (push2master-copies-identity): the master takes the copy's identity and node along with its content.
    kept: (kept) => (faults.has('push2master-copies-identity') ? [] : kept),
    content: (content, from) => {
      // Variation (push2master-content-only): only the binary content goes; name and description stay the master's.
      if (faults.has('push2master-content-only') && (from.kind === 'file' || from.kind === 'image'))
        for (const key of Object.keys(content)) if (!(FILE_CONTENT as readonly string[]).includes(key)) delete content[key as keyof Obj];
      return content;
    },
    contentPushed: (state, o) => {
      // Planted (push-leaves-master-unused): the master's new tags are not indexed, so it uses nothing after the push.
      if (faults.has('push-leaves-master-unused'))
        for (const v of state.sets.get(o.channelSetId) ?? []) if (v !== o) for (const refs of state.referrers.values()) refs.delete(v.id);
      // Variation (push2master-removes-copy): the pushed copy has done its work; the channel sees the master again.
      if (o.masterId !== undefined && faults.has('push2master-removes-copy')) removeObject(state, o);
    },
  };
}

/** The counter an object falls under in a localizationinfo entry. */
type Counter = 'inherited' | 'localized' | 'local';

/** The hooks of the localizationinfo forms (infoNodes, countObjects). */
export interface InfoPlan {
  /** The node the walk starts from; the contract: `nodeId`, the node given. */
  start(nodeId: number | undefined): number | undefined;
  /** The nodes reported; the contract: `nodes`, the start node's chain, or without one every node of the object's tree. */
  nodes(nodes: number[], state: State, nodeId: number | undefined): number[];
  /** The counter an object is counted under; the contract: `counter`. */
  counter(counter: Counter): Counter;
}

/** The localizationinfo plan both forms share. */
function info(faults: FaultSet): InfoPlan {
  return {
    start: (nodeId) => nodeId,
    nodes: (nodes, state, nodeId) => {
      // Planted (localizationinfo-master-start-skips-master): started at a node without a master, the walk leaves that node out.
      const start = nodeId ? state.nodes.get(nodeId) : undefined;
      return start && start.masterId === undefined && faults.has('localizationinfo-master-start-skips-master')
        ? nodes.filter((n) => n !== start.id)
        : nodes;
    },
    counter: (counter) => {
      // Planted (localizationinfo-localized-as-inherited): a localized object is counted as inherited.
      if (counter === 'localized' && faults.has('localizationinfo-localized-as-inherited')) return 'inherited';
      // Planted: an object of the node's own is counted as inherited.
      if (counter === 'local' && faults.has('localizationinfo-local-as-inherited')) return 'inherited';
      return counter;
    },
  };
}

/** GET /folder/localizationinfo/{id} (folderLocalizationInfo). */
export function folderLocalizationInfo(faults: FaultSet): InfoPlan & {
  /** The folder itself among the sub-items counted; the contract: `self`, the folder unless it is a root folder. */
  self<T>(self: T[]): T[];
  /** The templates counted among the sub-items; the contract: `templates`, those linked into the folder (or below). */
  templates<T>(templates: T[]): T[];
} {
  return {
    ...info(faults),
    // Variation (localizationinfo-every-node): "node to start with" read as the top of a walk down: every node of the
    // object's tree, whatever the node given.
    start: (nodeId) => (faults.has('localizationinfo-every-node') ? undefined : nodeId),
    // Variation (localizationinfo-without-self): the folder is not among its own sub-items.
    self: (self) => (faults.has('localizationinfo-without-self') ? [] : self),
    // Planted (localizationinfo-without-templates): the templates are left out of the count, as a walk of objects alone would.
    templates: (templates) => (faults.has('localizationinfo-without-templates') ? [] : templates),
  };
}

/** GET /file/localizationinfo/{id} (fileLocalizationInfo). */
export function fileLocalizationInfo(faults: FaultSet): InfoPlan {
  return info(faults);
}

/** The hooks of the localizations forms. */
export interface LocalizationsPlan {
  /** The localized copies answered; the contract: every live copy of the set. */
  copies<T>(copies: T[]): T[];
  /** The total answered; the contract: `total`, the number of localized copies. */
  total(total: number): number;
}

/** The localizations plan both forms share. */
function localizations(faults: FaultSet, kind: 'folder' | 'file'): LocalizationsPlan {
  return {
    // Planted (folder-localizations-empty): the folder form answers no copy, as if no folder were localized anywhere.
    copies: (copies) => (kind === 'folder' && faults.has('folder-localizations-empty') ? [] : copies),
    // Planted (localizations-total-off-by-one): the total counts one copy too many.
    total: (total) => total + (faults.has('localizations-total-off-by-one') ? 1 : 0),
  };
}

/** GET /folder/localizations/{id} (folderLocalizations). */
export function folderLocalizations(faults: FaultSet): LocalizationsPlan {
  return localizations(faults, 'folder');
}

/** GET /file/localizations/{id} (fileLocalizations). */
export function fileLocalizations(faults: FaultSet): LocalizationsPlan {
  return localizations(faults, 'file');
}
