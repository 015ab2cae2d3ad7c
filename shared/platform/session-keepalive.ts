// Server-side TCP keep-alives for the connections that hold session advisory
// locks (task runs, job pool presence): the server notices a peer that
// vanished without a FIN within ~25 s and frees its locks (contract §12.6).
// Sent in the startup packet (libpq `options`), so they cost no round trip.
export const SESSION_KEEPALIVE_OPTIONS = "-c tcp_keepalives_idle=10 -c tcp_keepalives_interval=5 -c tcp_keepalives_count=3";
