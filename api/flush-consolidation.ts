// Socket writes consolidated per turn of the event loop, for HTTP/1.1
// connections (decision 0133). Node writes each response to its socket as
// soon as it ends; on a busy server that is one send between the next
// requests' work, and each send wakes a client that has gone back to sleep,
// in the kernel, on the sender's time. The first write of a turn goes out
// at once; the turn's later ones are held until the loop's check phase and
// sent back to back: a client woken by them finds the rest while it runs.
// An idle server (one answer a turn) holds nothing. While a write is held the
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
/** A write went out in this turn already: the turn's next ones are held to its end. */
let turnStarted = false;

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
  turnStarted = false;
  const sockets = holding;
  holding = [];
  for (const socket of sockets) release(socket);
}

function hold(socket: HoldingSocket, call: WriteCall): void {
  if (flushing) return call();
  if (!turnStarted) {
    // The turn's first write goes out at once: an idle server adds no delay,
    // and a busy one keeps its clients working while it serves the rest.
    turnStarted = true;
    setImmediate(flushHeld);
    return call();
  }
  const earlier = socket[kHeld];
  if (earlier) {
    // The stream waits for a held write's callback, so this does not happen; kept in order if it does.
    socket[kHeld] = () => (earlier(), call());
    return;
  }
  socket[kHeld] = call;
  holding.push(socket);
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
