// A real SMTP server on loopback (smtp-server) that keeps what it receives,
// for tests of e-mail delivery: codes, reset links, test messages.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  from: string;
  to: string[];
  /** Headers and body, quoted-printable soft line breaks joined. */
  raw: string;
}

export interface SmtpPeer {
  port: number;
  received: ReceivedMail[];
  /** Connections the client closed (or dropped). */
  closed: number;
  /** The next message to arrive (or one already waiting). */
  next(timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export interface SmtpPeerOptions {
  username?: string;
  password?: string;
  /** Where the peer stops answering: before its greeting, or after taking a message's DATA. */
  hang?: "greeting" | "data";
}

export async function startSmtpPeer(options: SmtpPeerOptions = {}): Promise<SmtpPeer> {
  const received: ReceivedMail[] = [];
  const waiters: ((mail: ReceivedMail) => void)[] = [];
  let taken = 0;
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    authOptional: !options.username,
    onAuth(auth, _session, callback) {
      if (auth.username === options.username && auth.password === options.password) callback(null, { user: auth.username });
      else callback(new Error("invalid credentials"));
    },
    onConnect(_session, callback) {
      if (options.hang !== "greeting") callback();
    },
    onClose() {
      peer.closed++;
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const mail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8").replace(/=\r?\n/g, "").replace(/=3D/g, "="),
        };
        received.push(mail);
        waiters.shift()?.(mail);
        if (options.hang !== "data") callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  const peer: SmtpPeer = {
    port,
    received,
    closed: 0,
    next(timeoutMs = 5_000) {
      if (taken < received.length) return Promise.resolve(received[taken++]!);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("no e-mail arrived")), timeoutMs);
        waiters.push((mail) => {
          clearTimeout(timer);
          taken++;
          resolve(mail);
        });
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  return peer;
}
