/**
 * The build's precompression (src/build/static-manifest.ts), which reads each file a
 * chunk at a time: the encodings decode to the file, equal the one-shot encodings of
 * its bytes (so streaming changed no byte a build serves), and the digest and size are
 * the file's, for files of several chunks, of one, empty, and not worth compressing.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { precompressFiles } from '../../../src/build/static-manifest.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'precompress-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Text that compresses, of `bytes` bytes: JSON-like lines with numbers that vary. */
function text(bytes: number): Buffer {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = `{"id":"r${i}","rating":${(i * 7) % 5 + 1},"text":"The crew replaced ${i % 97} shingles; é€😀"},\n`;
    lines.push(line);
    size += Buffer.byteLength(line);
  }
  return Buffer.from(lines.join('')).subarray(0, bytes);
}

const digest = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex').slice(0, 32);

describe('precompressFiles', () => {
  it('gives each file the one-shot encodings of its bytes, its digest and its size', async () => {
    const files = {
      '/large.json': text(3 * 1024 * 1024 + 12_345),
      '/small.html': text(20_000),
      '/empty.txt': Buffer.alloc(0),
      '/noise.png': randomBytes(50_000),
    };
    for (const [name, bytes] of Object.entries(files)) writeFileSync(path.join(dir, name), bytes);
    const entries = await precompressFiles(Object.fromEntries(Object.keys(files).map((name) => [name, path.join(dir, name)])));

    for (const [name, bytes] of Object.entries(files)) {
      const entry = entries[name];
      expect(entry?.size, name).toBe(bytes.length);
      expect(entry?.hash, name).toBe(digest(bytes));
    }
    for (const name of ['/large.json', '/small.html']) {
      const bytes = files[name as keyof typeof files];
      const gz = readFileSync(path.join(dir, `${name}.gz`));
      const br = readFileSync(path.join(dir, `${name}.br`));
      expect(gunzipSync(gz).equals(bytes), name).toBe(true);
      expect(brotliDecompressSync(br).equals(bytes), name).toBe(true);
      expect(gz.equals(gzipSync(bytes, { level: 9 })), name).toBe(true);
      const quality = bytes.length > 256 * 1024 ? 8 : 11;
      expect(br.equals(brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } })), name).toBe(true);
      expect(entries[name]?.encodings).toEqual({ gzip: gz.length, br: br.length });
    }
    // Nothing to compress, and noise that compression would only grow: no encodings.
    expect(entries['/empty.txt']?.encodings).toEqual({});
    expect(existsSync(path.join(dir, 'empty.txt.gz'))).toBe(false);
    expect(entries['/noise.png']?.encodings).toEqual({});
    expect(existsSync(path.join(dir, 'noise.png.br'))).toBe(false);
  });
});
