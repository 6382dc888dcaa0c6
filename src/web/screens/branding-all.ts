/** The Branding, Access and Embed sections of a page, registered together (web/index.ts). */
import { Elysia } from 'elysia'
import { accessSection } from './page-access.ts'
import { brandingSection } from './branding.ts'
import { embedSection } from './embed.ts'
import type { ScreenDeps } from './deps.ts'

export const brandingScreens = (deps: ScreenDeps<'accounts' | 'pages' | 'branding' | 'pageAccessSettings' | 'preview'>) => new Elysia().use(brandingSection(deps)).use(accessSection(deps)).use(embedSection(deps))
