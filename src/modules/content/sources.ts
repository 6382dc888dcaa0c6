/** The content service over the Markdown and stylesheet embedded in the program. */
import siteCss from '../../assets/site.css' with { type: 'text' }
import { BLOG, CHANGELOG_MARKDOWN, DOCS } from '../../content/index.ts'
import { ContentService } from './service.ts'

export function createContentService(baseUrl: string): ContentService {
  return new ContentService({ docs: DOCS, blog: BLOG, changelog: CHANGELOG_MARKDOWN, siteCss }, baseUrl)
}
