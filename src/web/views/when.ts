/** Bits shared by the incident and maintenance forms: the time-zone select and a focused first field. */
import { selectField, type FormState } from '../kit/forms.ts'
import { zoneOptions } from '../kit/zones.ts'

/**
 * The zone the form's `datetime-local` fields are read in (the owner's last choice, else UTC;
 * /static/user/when.js picks the browser's zone when none was chosen yet).
 */
export function zoneField(form: FormState, zone: string, guessed = false): string {
  return selectField({
    name: 'tz',
    label: 'Time zone',
    hint: 'Times in this form are read in this zone and stored in UTC.',
    options: zoneOptions(),
    state: form,
    fallback: zone,
  }).replace('<select ', guessed ? '<select data-zone-guess ' : '<select ')
}

/** A field whose control takes the focus when the page opens (the outage path's first field). */
export const autofocused = (field: string, on = true): string => (on ? field.replace(/<(input|select|textarea) /, '<$1 autofocus ') : field)
