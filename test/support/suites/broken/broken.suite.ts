// A suite file that cannot load: the engine must fail the run with its error, not report fewer tests.
throw new Error('this suite file fails to load');
