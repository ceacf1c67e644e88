import { open } from "node:fs/promises";

/** Characters encoded per write: a 20 MB string encoded at once held the event loop ~100 ms on a busy machine. */
export const WRITE_SLICE_CHARS = 1 << 20;

/** Writes a large string a slice at a time, so its encoding is spread over many short turns of the event loop. */
export async function writeInSlices(file: string, value: string, sliceChars = WRITE_SLICE_CHARS): Promise<void> {
  const out = await open(file, "w", 0o600);
  try {
    for (let i = 0; i < value.length; ) {
      let end = Math.min(value.length, i + sliceChars);
      // Never split a surrogate pair: each half alone would be written as U+FFFD.
      const last = value.charCodeAt(end - 1);
      if (last >= 0xd800 && last <= 0xdbff && end < value.length) end++;
      await out.write(value.slice(i, end));
      i = end;
    }
  } finally {
    await out.close();
  }
}
