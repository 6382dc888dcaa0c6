# Caddy with a DNS provider's module, for the wildcard certificate of <slug>.status.example.com
# (the [DNS] block of the Caddyfile). The official caddy image, like Debian's package, has none.
# Another provider: replace the module (https://caddyserver.com/docs/modules/ lists them under dns.providers).
FROM caddy:2-builder AS build
RUN xcaddy build --with github.com/caddy-dns/cloudflare

FROM caddy:2
COPY --from=build /usr/bin/caddy /usr/bin/caddy
