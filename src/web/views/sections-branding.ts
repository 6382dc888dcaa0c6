/** The page sections of the branding, access and embed screens, and the analytics share links (PAGE_SECTIONS). */
export const BRANDING_SECTIONS: Array<{ label: string; href: (id: number) => string }> = [
  { label: 'Branding', href: (id) => `/user/pages/${id}/branding` },
  { label: 'Access', href: (id) => `/user/pages/${id}/access` },
  { label: 'Embed', href: (id) => `/user/pages/${id}/embed` },
  { label: 'Share links', href: (id) => `/user/analytics/${id}#tokens` },
]
