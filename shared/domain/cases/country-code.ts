/**
 * ISO 3166-1 alpha-2: the 249 officially assigned country codes. A closed set (SPEC.md: an
 * unsupported value is a field-level 422, never replaced), accepted in any letter case and
 * stored upper-cased. Reserved and user-assigned codes (EU, UN, XK, ZZ) are not countries.
 */
import * as z from 'zod';
import { text } from '../../schema/fields.ts';

export const countryCodes = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV ' +
  'BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ' +
  'ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE ' +
  'IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY ' +
  'MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU ' +
  'NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM ' +
  'SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE ' +
  'VG VI VN VU WF WS YE YT ZA ZM ZW'
).split(' ') as readonly string[];

const known = new Set(countryCodes);

/** A country code as a client sends it: any letter case, stored upper-cased. */
export function countryCode() {
  return text({ max: 2 })
    .check((ctx) => {
      if (ctx.value.trim() && !known.has(ctx.value.toUpperCase())) {
        ctx.issues.push({
          code: 'custom',
          input: ctx.value,
          message: 'must be an ISO 3166-1 alpha-2 country code such as DE or US',
        });
      }
    })
    .transform((value) => value.toUpperCase())
    .meta({
      minLength: 2,
      maxLength: 2,
      pattern: '^[A-Za-z]{2}$',
      description: 'ISO 3166-1 alpha-2 country code (DE, AT, US), any letter case; answered upper-cased.',
    });
}

/** A country code as the service answers it. */
export const storedCountryCode = () =>
  z.enum(countryCodes as [string, ...string[]]).meta({ description: 'ISO 3166-1 alpha-2, upper case.' });
