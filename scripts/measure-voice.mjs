#!/usr/bin/env node
// Measures the comments of src/ with the TypeScript parser's tokens, generated contract modules left out: comment words per
// line of code, lines past 120 columns (those holding a comment apart), and how often comments say "the one ".
// Usage: node scripts/measure-voice.mjs [folder] [--files] [--by-folder] (the folder defaults to src; --files lists the
// worst files, --by-folder the ratio of each folder holding files).
import { readFileSync, readdirSync } from 'node:fs'
import ts from 'typescript'

const args = process.argv.slice(2)
const folder = args.find((arg) => !arg.startsWith('--')) ?? 'src'
const perFile = args.includes('--files')
const byFolder = args.includes('--by-folder')
const WIDTH = 120
const GENERATED = /^\/\/ Generated from .* Do not edit\./

const files = readdirSync(folder, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
  .map((entry) => `${entry.parentPath}/${entry.name}`)
  .filter((file) => !GENERATED.test(readFileSync(file, 'utf8')))
  .sort()

const total = { files: 0, codeLines: 0, commentWords: 0, commentLines: 0, wideComment: 0, wideCode: 0, theOne: 0 }
const rows = []
for (const file of files) {
  const found = measure(readFileSync(file, 'utf8'), file)
  for (const key of Object.keys(found)) total[key] += found[key]
  total.files += 1
  rows.push({ file, ...found })
}

/** Counts one file's code lines, comment words and lines, wide lines and "the one ", from its parsed tokens. */
function measure(text, file) {
  const lineOf = lineStarts(text)
  const code = new Set()
  const comment = new Set()
  const seen = new Set()
  let commentWords = 0
  let theOne = 0
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false)
  const mark = (lines, start, end) => {
    for (let line = lineOf(start); line <= lineOf(Math.max(start, end - 1)); line += 1) lines.add(line)
  }
  const noteComments = (ranges) => {
    for (const { pos, end } of ranges ?? []) {
      if (seen.has(pos)) continue
      seen.add(pos)
      const body = text.slice(pos, end).replace(/^\/\/+|^\/\*+|\*+\/$/g, ' ')
      commentWords += body.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length
      theOne += (body.replace(/\s*\n\s*\*?\s*/g, ' ').match(/\bthe one /gi) ?? []).length
      mark(comment, pos, end)
    }
  }
  // The parser's tokens, so a regex or a template's parts are never read as the start of a string or comment.
  const visit = (node) => {
    const children = node.getChildren(source)
    if (children.length > 0 && !ts.isJSDoc(node)) {
      for (const child of children) visit(child)
      return
    }
    noteComments(ts.getLeadingCommentRanges(text, node.pos))
    noteComments(ts.getTrailingCommentRanges(text, node.end))
    // A JSDoc is a comment the parser attaches to its declaration: counted above, never as code.
    if (node.kind !== ts.SyntaxKind.EndOfFileToken && !ts.isJSDoc(node) && node.end > node.getStart(source))
      mark(code, node.getStart(source), node.end)
  }
  visit(source)
  let wideComment = 0
  let wideCode = 0
  text.split('\n').forEach((line, index) => {
    if ([...line].length <= WIDTH) return
    if (comment.has(index)) wideComment += 1
    else wideCode += 1
  })
  return { codeLines: code.size, commentWords, commentLines: comment.size, wideComment, wideCode, theOne }
}

/** Returns a function giving the 0-based line of an offset. */
function lineStarts(text) {
  const starts = [0]
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) starts.push(index + 1)
  return (offset) => {
    let low = 0
    let high = starts.length - 1
    while (low < high) {
      const middle = (low + high + 1) >> 1
      if (starts[middle] <= offset) low = middle
      else high = middle - 1
    }
    return low
  }
}

const ratio = (words, lines) => (lines === 0 ? '0' : (words / lines).toFixed(2))
if (perFile) {
  rows.sort((a, b) => b.commentWords - a.commentWords)
  for (const row of rows.slice(0, 40))
    console.log(
      `${ratio(row.commentWords, row.codeLines).padStart(6)} words/line  ${String(row.commentWords).padStart(5)} words` +
        `  ${String(row.wideComment + row.wideCode).padStart(3)} wide  ${row.file}`,
    )
}
if (byFolder) {
  const folders = new Map()
  for (const row of rows) {
    const name = row.file.slice(0, row.file.lastIndexOf('/'))
    const sum = folders.get(name) ?? { files: 0, codeLines: 0, commentWords: 0 }
    sum.files += 1
    sum.codeLines += row.codeLines
    sum.commentWords += row.commentWords
    folders.set(name, sum)
  }
  for (const [name, sum] of [...folders].sort((a, b) => b[1].commentWords - a[1].commentWords))
    console.log(
      `${ratio(sum.commentWords, sum.codeLines).padStart(6)} words/line  ${String(sum.commentWords).padStart(5)} words` +
        `  ${String(sum.codeLines).padStart(5)} code lines  ${String(sum.files).padStart(3)} files  ${name}`,
    )
}
console.log(`${folder}: ${total.files} files, ${total.codeLines} lines of code, ${total.commentLines} lines of comment`)
console.log(
  `comment words per line of code: ${ratio(total.commentWords, total.codeLines)} (${total.commentWords} words)`,
)
console.log(
  `lines past ${WIDTH} columns: ${total.wideComment + total.wideCode} (${total.wideComment} holding a comment, ${total.wideCode} code only)`,
)
console.log(`"the one " in comments: ${total.theOne}`)
