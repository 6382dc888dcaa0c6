/** The html-validate rules every page of Lantern passes (the reasons are in test/e2e/html-valid.test.ts). */
import type { ConfigData } from 'html-validate'

export const HTML_RULES: ConfigData = {
  extends: ['html-validate:recommended', 'html-validate:document'],
  rules: {
    'require-sri': 'off',
    'doctype-style': ['error', { style: 'lowercase' }],
    'form-dup-name': ['error', { shared: ['radio', 'checkbox', 'button', 'reset', 'submit'] }],
    'valid-id': ['error', { relaxed: true }],
    'no-trailing-whitespace': 'off',
  },
}
