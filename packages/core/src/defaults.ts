/**
 * The version, the limits and their defaults, without the app: nothing here
 * imports Hono or Zod, so a command line can print `--help` and `--version`
 * (`@mockpoint/core/defaults`) without loading the rest.
 *
 * @module
 */

export { parseHostMappings } from './pattern/host-mapping.js';
export { HOST_RULE_FORMS, isHostRule } from './pattern/host-rules.js';
export {
  DEFAULT_CACHE_MAX_BYTES,
  DEFAULT_CONNECTION_LIMITS,
  DEFAULT_JOURNAL_MAX_BYTES,
  DEFAULT_JOURNAL_SIZE,
  DEFAULT_LIMITS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_ROUTES,
  LIMIT_KEYS,
  type LimitOptions,
  pickLimits,
  ROUTES_BODY_FACTOR,
  resolveLimits,
  routesBodyBytes,
} from './registry/limits.js';
export { DEFAULT_DELAY, DEFAULT_MAX_DELAY_MS, DEFAULT_STATUS_CODE } from './registry/record-defaults.js';
export { isOriginRule, isValidName } from './registry/rules.js';
export {
  defaultText,
  LIMIT_NAMES,
  type LimitName,
  SETTING_LIST,
  SETTINGS,
  type SettingName,
  type SettingSpec,
  type SettingType,
} from './registry/settings.js';
export { VERSION } from './registry/version.js';
