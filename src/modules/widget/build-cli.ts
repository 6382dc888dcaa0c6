/**
 * Builds the widget with Bun.build and writes the minified script to stdout. Run by the macro in
 * build.ts at transpile/bundle time (Bun.build cannot run inside a macro itself), and usable by
 * hand: `bun src/modules/widget/build-cli.ts | gzip -9 | wc -c`.
 */
const result = await Bun.build({
  entrypoints: [`${import.meta.dir}/client/status.ts`],
  target: 'browser',
  format: 'iife',
  minify: true,
})
if (!result.success || !result.outputs[0]) {
  console.error(result.logs.map(String).join('\n'))
  process.exit(1)
}
process.stdout.write(await result.outputs[0].text())
