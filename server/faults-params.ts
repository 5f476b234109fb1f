/**
 * Planted shape faults that show only under one parameter value (a getPages add-on, `tree`,
 * `privileges`, a wastebin listing, a counts-only usage answer). The operation sweep seldom asks for
 * those answers; each fault names the requirement of the semantic test that does, so `prove` shows
 * that the judge's schema check in that test finds it. Each malformed member is one the test's own
 * checks never compare: only the response schema can catch it.
 */
import { faultDefs } from './fault-def.ts';

/** The parameter-dependent shape faults, with the requirement ids of the tests that send the parameter. */
export const paramShapeFaults = faultDefs([
  {
    name: 'shape-getpages-langvars',
    breaks: ['FLD-09'],
    description: 'getPages langvars=true renders the language variants with folderId and templateId as strings',
  },
  {
    name: 'shape-getpages-contenttags',
    breaks: ['FLD-09'],
    description: 'getPages contenttags=true gives content tags their active flag as 1 or 0 instead of a boolean',
  },
  {
    name: 'shape-getpages-template',
    breaks: ['FLD-09'],
    description: 'getPages template=true adds templates whose cdate and edate are ISO date strings instead of timestamps',
  },
  {
    name: 'shape-wastebin-deleted-by',
    breaks: ['WST-02'],
    description: 'deleted items listed with wastebin=include name the deleting user in deleted.by with a string id',
  },
  {
    name: 'shape-folder-privilegebits',
    breaks: ['FLD-11'],
    description: 'folder load with privileges=true sends privilegeBits as the integer value of the mask instead of its bit string',
  },
  {
    name: 'shape-getfolders-tree',
    breaks: ['FLD-03'],
    description: 'getFolders and GET /folder with tree=true give every folder its motherId as a string',
  },
  {
    name: 'shape-usage-counts-only',
    breaks: ['USE-02'],
    description: 'usage answers without the list (files=false, folders=false) carry numItems as a string',
  },
]);
