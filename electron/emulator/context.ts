import type { Catalogue } from './catalogue/catalogue';
import type { Faults } from './faults';
import type { SandboxJobRunner } from './jobs/engine';
import type { MediaFetcher } from './media/fetch';
import type { MediaTools } from './media/tools';
import type { ResolvedOptions } from './options';
import type { Accounts } from './state/accounts';
import type { Files } from './state/files';
import type { StateStore } from './state/store';
import type { Views } from './views';

/** Everything a route needs, built once per running sandbox. */
export interface EmulatorContext {
  options: ResolvedOptions;
  store: StateStore;
  accounts: Accounts;
  files: Files;
  engine: SandboxJobRunner;
  tools: MediaTools;
  fetcher: MediaFetcher;
  catalogue: Catalogue;
  views: Views;
  /** Injected faults: rates the control endpoint and tests change at run time, and their counters. */
  faults: Faults;
}
