/** The owner's side of a private page's access (management API): the gate password and the embed token. */
import type { Owner } from '../accounts/service.ts'
import type { StatusPagesService } from '../status-pages/service.ts'
import type { PageAccessService } from './service.ts'

export class PageAccessSettingsService {
  constructor(
    private readonly pages: StatusPagesService,
    private readonly access: PageAccessService,
  ) {}

  async accessSettings(owner: Owner, pageId: number) {
    const page = await this.pages.get(owner, pageId)
    return { visibility: page.visibility, ...(await this.access.settings(pageId)) }
  }

  async setPassword(owner: Owner, pageId: number, password: string | null) {
    await this.pages.get(owner, pageId)
    await this.access.setPassword(pageId, password)
    return this.accessSettings(owner, pageId)
  }

  async rotateEmbedToken(owner: Owner, pageId: number): Promise<string> {
    await this.pages.get(owner, pageId)
    return this.access.rotateEmbedToken(pageId)
  }

  async revokeEmbedToken(owner: Owner, pageId: number): Promise<void> {
    await this.pages.get(owner, pageId)
    await this.access.revokeEmbedToken(pageId)
  }
}
