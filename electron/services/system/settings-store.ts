import { AppSettings } from '../../common/bridge';
import type { RecordStoreSpec } from '../host/types';

/**
 * The app settings record. Every area that needs a setting (the media helper reads the binary paths)
 * opens it with this same spec object, which gives them the one shared store instance.
 */
export const appSettingsSpec: RecordStoreSpec<AppSettings> = {
  name: 'settings',
  schema: AppSettings,
  defaults: {
    ffmpegPath: null,
    ffprobePath: null,
    notifications: true,
    favouriteVoices: [],
    spending: { skipQuestionUnder: null, dailyLimits: {} },
  },
  version: 1,
};
