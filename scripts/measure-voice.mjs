#!/usr/bin/env node
// Measures the comments of src/ with the TypeScript scanner, generated contract modules left out: comment words per
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
  const found = measure(readFileSync(file, 'utf8'))
  for (const key of Object.keys(found)) total[key] += found[key]
  total.files += 1
  rows.push({ file, ...found })
}

/** Counts one file's code lines, comment words and lines, wide lines and "the one ". */
function measure(text) {
  const lineOf = lineStarts(text)
  const code = new Set()
  const comment = new Set()
  let commentWords = 0
  let theOne = 0
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text)
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    const start = scanner.getTokenStart()
    const end = scanner.getTokenEnd()
    const first = lineOf(start)
    const last = lineOf(Math.max(start, end - 1))
    if (kind === ts.SyntaxKind.SingleLineCommentTrivia || kind === ts.SyntaxKind.MultiLineCommentTrivia) {
      const body = text.slice(start, end).replace(/^\/\/+|^\/\*+|\*+\/$/g, ' ')
      commentWords += body.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length
      theOne += (body.replace(/\s*\n\s*\*?\s*/g, ' ').match(/\bthe one /gi) ?? []).length
      for (let line = first; line <= last; line += 1) comment.add(line)
    } else if (kind !== ts.SyntaxKind.WhitespaceTrivia && kind !== ts.SyntaxKind.NewLineTrivia) {
      // A template's middle and tail are scanned as `}` here; the lines they span are code all the same.
      for (let line = first; line <= last; line += 1) code.add(line)
    }
  }
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
