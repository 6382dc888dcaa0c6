/** Request schemas of the account routes (API and web forms use the same ones). */
import { t } from 'elysia'

/** `POST /user/api/v1/api-keys` and the web form "New API key". */
export const CreateApiKeyBody = t.Object({
  name: t.String({
    minLength: 1,
    maxLength: 100,
    pattern: '\\S',
    error: 'name must be 1 to 100 characters, not only spaces',
    description: 'What the key is for ("deploy script"), to recognise it in the list',
    examples: ['deploy script'],
  }),
})

/** The first-run setup form (/user/setup): the one-time token from the server's log, and the first account. */
export const SetupBody = t.Object({
  token: t.String({ maxLength: 100, error: 'token is missing' }),
  email: t.String({ minLength: 3, maxLength: 254, pattern: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$', error: 'email must be an address like you@example.com' }),
  password: t.String({ minLength: 8, maxLength: 1024, error: 'password must be 8 to 1024 characters' }),
})
