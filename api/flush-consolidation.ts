// Socket writes consolidated per turn of the event loop, for HTTP/1.1
// connections (decision 0133). Node writes each response to its socket as
// soon as it ends; on a busy server that is one send between the next
// requests' work, and each send wakes a client that has gone back to sleep,
// in the kernel, on the sender's time. Holding a connection's writes until
// the loop's check phase sends the answers of one turn back to back: a
// client woken by the first finds the rest while it runs. An idle server
// still answers within the turn it works in. While a write is held the
// stream buffers what follows (it waits for the held write's callback), so
// order is kept; a socket destroyed with a write held sends it first, as it
// would have been sent already (a 408 written just before the close).
import type { Socket } from "node:net";

type WriteCall = () => void;

const kHeld = Symbol("held write");

interface HoldingSocket extends Socket {
  [kHeld]?: WriteCall | undefined;
}

let holding: HoldingSocket[] = [];
let flushing = false;

/** Sends the socket's held write now; what it releases (buffered chunks) goes straight out too. */
function release(socket: HoldingSocket): void {
  const call = socket[kHeld];
  if (!call) return;
  socket[kHeld] = undefined;
  const nested = flushing;
  flushing = true;
  try {
    call();
  } finally {
    flushing = nested;
  }
}

function flushHeld(): void {
  const sockets = holding;
  holding = [];
  for (const socket of sockets) release(socket);
}

function hold(socket: HoldingSocket, call: WriteCall): void {
  if (flushing) return call();
  const earlier = socket[kHeld];
  if (earlier) {
    // The stream waits for a held write's callback, so this does not happen; kept in order if it does.
    socket[kHeld] = () => (earlier(), call());
    return;
  }
  socket[kHeld] = call;
  if (holding.push(socket) === 1) setImmediate(flushHeld);
}

/** Holds the socket's writes until the end of the turn they were made in. */
export function consolidateWrites(socket: Socket): void {
  const held = socket as HoldingSocket;
  const write = socket._write.bind(socket);
  socket._write = (chunk, encoding, callback) => hold(held, () => write(chunk, encoding, callback));
  const writev = socket._writev?.bind(socket);
  if (writev) socket._writev = (chunks, callback) => hold(held, () => writev(chunks, callback));
  const destroy = socket.destroy.bind(socket);
  socket.destroy = (error) => {
    release(held);
    return destroy(error);
  };
}
