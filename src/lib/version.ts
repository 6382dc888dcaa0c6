/** The version of this Lantern: the OpenAPI document, `/metrics` and `lantern --version` report it. */
export const APP_VERSION = '0.1.0'
