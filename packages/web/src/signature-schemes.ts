/**
 * The signature schemes the forms offer, as the server lists them (`GET /api/signature-schemes`:
 * the generic ones, then those the providers loaded so far registered): the page keeps no list of
 * its own, so a provider's scheme shows here once its twin is loaded.
 *
 * @module
 */
import { api, isApiFailure, type SignatureSchemeView } from './api.js';
import { h } from './dom.js';
import { report } from './report.js';

/**
 * Fills `select` with the schemes `offered` keeps, after the `first` options (`[value, label]`),
 * keeping the value it has; resolves with the schemes read (none when they cannot be read: the
 * select keeps what it holds, and the server still judges what is sent).
 */
export async function fillSchemes(
  select: HTMLSelectElement,
  first: readonly [string, string][],
  offered: (scheme: SignatureSchemeView) => boolean = () => true,
): Promise<SignatureSchemeView[]> {
  let schemes: SignatureSchemeView[];
  try {
    schemes = await api.signatureSchemes();
  } catch (error) {
    if (!isApiFailure(error)) report(error);
    return [];
  }
  const value = select.value;
  const options = [...first, ...schemes.filter(offered).map((scheme): [string, string] => [scheme.name, scheme.name])];
  select.replaceChildren(...options.map(([name, label]) => h('option', { value: name }, label)));
  // A value the list no longer has (a provider's scheme of a check set before a restart) stays shown.
  if (value !== '' && !options.some(([name]) => name === value)) select.append(h('option', { value }, value));
  select.value = value;
  return schemes;
}
