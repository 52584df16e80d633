// Lint rules of this repository, loaded by eslint.config.js as the `studio` plugin.
import { layering } from './layering.js';
import { noCycle } from './no-cycle.js';

export default { meta: { name: 'studio' }, rules: { layering, 'no-cycle': noCycle } };
