/** The content service over the Markdown and stylesheet embedded in the program. */
import faviconPath from '../../assets/favicon.svg' with { type: 'file' }
import siteCss from '../../assets/site.css' with { type: 'text' }
import { BLOG, CHANGELOG_MARKDOWN, DOCS } from '../../content/index.ts'
import { ContentService } from './service.ts'

export function createContentService(baseUrl: string, instance?: { statusDomain: string; signupOpen: boolean }): ContentService {
  // A `type: 'file'` import is a path (inside the binary: /$bunfs/…); Bun.file reads it in both cases.
  const favicon = () => Bun.file(faviconPath).bytes()
  return new ContentService({ docs: DOCS, blog: BLOG, changelog: CHANGELOG_MARKDOWN, siteCss, favicon }, baseUrl, instance)
}
