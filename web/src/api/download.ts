// A file the server streams in chunks ({content, contentType, filename}, as
// the export RPCs answer), gathered into a Blob and handed to the browser
// as a download under the server's file name.

export interface FileChunk {
  content: Uint8Array;
  contentType: string;
  filename: string;
}

export interface DownloadedFile {
  filename: string;
  bytes: number;
}

export async function downloadChunks(chunks: AsyncIterable<FileChunk>, fallbackName: string): Promise<DownloadedFile> {
  const parts: Uint8Array<ArrayBuffer>[] = [];
  let contentType = "application/octet-stream";
  let filename = fallbackName;
  for await (const chunk of chunks) {
    if (chunk.contentType) contentType = chunk.contentType;
    if (chunk.filename) filename = chunk.filename;
    parts.push(chunk.content as Uint8Array<ArrayBuffer>);
  }
  const blob = new Blob(parts, { type: contentType });
  saveBlob(blob, filename);
  return { filename, bytes: blob.size };
}

function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  link.click();
  // The download has started from the URL by the next task; the memory can go after that.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
