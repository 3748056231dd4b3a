//! A tag printed on a line of its own leaves no empty line (issue 18).
//!
//! An agent prints `<fugue:notify key=... >done</fugue:notify>\n`: the tag goes, and
//! the line break after it would leave an empty line in the pane where the tag was.
//! When a tag began at the start of a line and kept nothing on the screen (no escape
//! sequences inside it), the line break right after it is removed too: `\n`, `\r\n`
//! (a terminal's ONLCR), across reads. Anything else after the tag ends the search.

/// What may still be removed after a tag that stood alone.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum Eol {
    #[default]
    Nothing,
    /// `\r` or `\n` may follow.
    LineBreak,
    /// A `\r` was removed: only `\n` may follow. (A lone `\r` at the start of a line
    /// moves nothing, so removing it changes nothing on the screen.)
    AfterCr,
}

/// Skips the line break owed at `input[i..]`; returns where the text resumes.
pub(super) fn skip(eol: &mut Eol, input: &[u8], mut i: usize) -> usize {
    while *eol != Eol::Nothing && i < input.len() {
        match (*eol, input[i]) {
            (Eol::LineBreak, b'\r') => {
                *eol = Eol::AfterCr;
                i += 1;
            }
            (_, b'\n') => {
                *eol = Eol::Nothing;
                i += 1;
            }
            _ => *eol = Eol::Nothing,
        }
    }
    i
}
