// A value a caller gives that Signet later sends as an HTTP header (an SSF receiver's
// authorization_header): visible ASCII and spaces only. A CR or LF would end the header and start
// another one of the caller's choosing, and node refuses any control character (NUL, the other
// C0 characters, DEL) or a character beyond Latin-1 at every send: such a value is refused when
// it is given, never stored to fail every delivery.
export const HEADER_VALUE = /^[\x20-\x7e]*$/;

export const HEADER_VALUE_PROBLEM = 'must be printable ASCII: no control character (CR, LF, NUL, tab, DEL) and nothing beyond ASCII';
