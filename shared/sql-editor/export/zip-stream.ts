// A ZIP archive written as a stream (APPNOTE 6.3: deflated entries, each
// followed by a data descriptor since its size and CRC are known only at its
// end; UTF-8 names; no ZIP64, so an entry stays under 4 GiB, which the
// export's byte bound keeps it to). Each entry's content is compressed chunk
// by chunk as it comes, so memory holds one chunk and zlib's window.
import { crc32, createDeflateRaw } from "node:zlib";

const LOCAL_HEADER = 0x04034b50;
const DATA_DESCRIPTOR = 0x08074b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const FLAGS = 0x0808; // sizes in the data descriptor; UTF-8 names
const DEFLATE = 8;
const VERSION = 20;

interface Entry {
  name: Buffer;
  offset: number;
  crc: number;
  compressed: number;
  size: number;
}

export class ZipStream {
  private readonly entries: Entry[] = [];
  private offset = 0;
  private readonly dosTime: number;
  private readonly dosDate: number;

  constructor(now = new Date()) {
    this.dosTime = (now.getHours() << 11) | (now.getMinutes() << 5) | (now.getSeconds() >> 1);
    this.dosDate = ((now.getFullYear() - 1980) << 9) | ((now.getMonth() + 1) << 5) | now.getDate();
  }

  /** One entry: its header, its content deflated as it comes, its data descriptor. */
  async *entry(name: string, content: AsyncIterable<Buffer> | Iterable<Buffer>): AsyncGenerator<Buffer> {
    const entry: Entry = { name: Buffer.from(name), offset: this.offset, crc: 0, compressed: 0, size: 0 };
    yield this.count(this.localHeader(entry));
    const deflate = createDeflateRaw();
    const out: Buffer[] = [];
    deflate.on("data", (chunk: Buffer) => out.push(chunk));
    const ended = new Promise((resolve, reject) => deflate.once("end", resolve).once("error", reject));
    for await (const chunk of content) {
      entry.crc = crc32(chunk, entry.crc);
      entry.size += chunk.length;
      await new Promise<void>((resolve, reject) => deflate.write(chunk, (error) => (error ? reject(error) : resolve())));
      yield* this.drain(out, entry);
    }
    deflate.end();
    await ended;
    yield* this.drain(out, entry);
    yield this.count(this.dataDescriptor(entry));
    this.entries.push(entry);
  }

  /** The central directory and its end record, after the last entry. */
  end(): Buffer {
    const start = this.offset;
    const central = Buffer.concat(this.entries.map((entry) => this.centralHeader(entry)));
    const end = Buffer.alloc(22);
    end.writeUInt32LE(END_OF_CENTRAL_DIRECTORY, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(central.length, 12);
    end.writeUInt32LE(start, 16);
    return this.count(Buffer.concat([central, end]));
  }

  private *drain(out: Buffer[], entry: Entry): Generator<Buffer> {
    for (const chunk of out.splice(0)) {
      entry.compressed += chunk.length;
      yield this.count(chunk);
    }
  }

  private count(bytes: Buffer): Buffer {
    this.offset += bytes.length;
    return bytes;
  }

  private localHeader(entry: Entry): Buffer {
    const header = Buffer.alloc(30);
    header.writeUInt32LE(LOCAL_HEADER, 0);
    header.writeUInt16LE(VERSION, 4);
    header.writeUInt16LE(FLAGS, 6);
    header.writeUInt16LE(DEFLATE, 8);
    header.writeUInt16LE(this.dosTime, 10);
    header.writeUInt16LE(this.dosDate, 12);
    header.writeUInt16LE(entry.name.length, 26);
    return Buffer.concat([header, entry.name]);
  }

  private dataDescriptor(entry: Entry): Buffer {
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(DATA_DESCRIPTOR, 0);
    descriptor.writeUInt32LE(entry.crc, 4);
    descriptor.writeUInt32LE(entry.compressed, 8);
    descriptor.writeUInt32LE(entry.size, 12);
    return descriptor;
  }

  private centralHeader(entry: Entry): Buffer {
    const header = Buffer.alloc(46);
    header.writeUInt32LE(CENTRAL_HEADER, 0);
    header.writeUInt16LE(VERSION, 4);
    header.writeUInt16LE(VERSION, 6);
    header.writeUInt16LE(FLAGS, 8);
    header.writeUInt16LE(DEFLATE, 10);
    header.writeUInt16LE(this.dosTime, 12);
    header.writeUInt16LE(this.dosDate, 14);
    header.writeUInt32LE(entry.crc, 16);
    header.writeUInt32LE(entry.compressed, 20);
    header.writeUInt32LE(entry.size, 24);
    header.writeUInt16LE(entry.name.length, 28);
    header.writeUInt32LE(entry.offset, 42);
    return Buffer.concat([header, entry.name]);
  }
}
