/** A BCP 47 tag's shape (`de`, `pt-BR`, `zh-Hant-TW`): what `lang` of the status JSON takes. No imports: the widget bundles it. */
export const LANGUAGE_TAG = /^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8}){0,4}$/
