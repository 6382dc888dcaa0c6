/** Request schemas of the account routes (API and web forms use the same ones). */
import { t } from 'elysia'
import { ROLES } from '../plans/roles.ts'

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
  role: t.Optional(
    t.Union(
      ROLES.map((role) => t.Literal(role)),
      {
        error: `role must be one of ${ROLES.join(', ')}`,
        description: 'What the key may do in the team it acts in: a role no higher than yours (default: yours). A key whose member is later demoted acts with the lower of the two.',
        examples: ['responder'],
      },
    ),
  ),
})

/** The first-run setup form (/user/setup): the one-time token from the server's log, and the first account. */
export const SetupBody = t.Object({
  token: t.String({ maxLength: 100, error: 'token is missing' }),
  email: t.String({ minLength: 3, maxLength: 254, pattern: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$', error: 'email must be an address like you@example.com' }),
  password: t.String({ minLength: 8, maxLength: 1024, error: 'password must be 8 to 1024 characters' }),
})
