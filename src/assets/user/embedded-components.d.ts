// The components screens' script, shipped as text inside the binary (never imported as a module).
declare module '*/user/components.js' {
  const text: string
  export default text
}
