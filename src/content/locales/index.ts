/**
 * The translations of the public side, one JSON file per language (edit them freely: a key is a
 * sentence, or an object of plural forms `one` / `other` / … as `Intl.PluralRules` names them).
 * A compiled binary has no folder to read, so each file is imported here.
 */
import de from './de.json' with { type: 'json' }
import en from './en.json' with { type: 'json' }
import es from './es.json' with { type: 'json' }
import fr from './fr.json' with { type: 'json' }
import ja from './ja.json' with { type: 'json' }
import ptBR from './pt-BR.json' with { type: 'json' }

export type LocaleFile = Readonly<Record<string, string | Readonly<Partial<Record<Intl.LDMLPluralRule, string>>>>>

export const LOCALE_FILES: Readonly<Record<'en' | 'de' | 'fr' | 'es' | 'pt-BR' | 'ja', LocaleFile>> = { en, de, fr, es, 'pt-BR': ptBR, ja }
