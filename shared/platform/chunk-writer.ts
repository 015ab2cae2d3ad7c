// Text encoded straight into a download's chunk of bytes, piece by piece:
// joining a chunk's pieces into one string and encoding that took about a
// seventh of an audit export's CPU (flattening the string, then a second
// pass). The writer knows the exact UTF-8 size of what it holds, so an
// export can bound its bytes at a piece's boundary.

/** A chunk is handed on once it holds about this many bytes. */
export const CHUNK_BYTES = 64 * 1024;

export class ChunkWriter {
  private bytes = Buffer.allocUnsafe(CHUNK_BYTES * 2);
  size = 0;

  /** Appends the text's UTF-8 bytes; answers how many they were. */
  write(text: string): number {
    const room = this.bytes.length - this.size;
    if (text.length * 3 > room) this.grow(text.length * 3); // a UTF-16 unit is at most 3 UTF-8 bytes
    const written = this.bytes.write(text, this.size);
    this.size += written;
    return written;
  }

  /** Drops what was written after the first `size` bytes (a piece that must not be sent). */
  truncate(size: number): void {
    this.size = Math.min(size, this.size);
  }

  /** The bytes written so far; the writer starts a new chunk. */
  take(): Buffer {
    const taken = this.bytes.subarray(0, this.size);
    this.bytes = Buffer.allocUnsafe(CHUNK_BYTES * 2);
    this.size = 0;
    return taken;
  }

  private grow(needed: number): void {
    const bigger = Buffer.allocUnsafe(this.size + Math.max(needed, CHUNK_BYTES * 2));
    this.bytes.copy(bigger, 0, 0, this.size);
    this.bytes = bigger;
  }
}
