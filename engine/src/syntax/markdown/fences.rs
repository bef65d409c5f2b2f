//! Fenced code blocks (behaviour §3.2): where one opens, where it closes,
//! and which lines it covers.

use super::{is_space_or_tab, short_indent};

/// An open code fence (behaviour §3.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Fence {
    /// `` ` `` or `~`.
    pub marker: char,
    /// Length of the opening run.
    pub len: usize,
}

/// The fence a line opens: at most three spaces or tabs, then at least
/// three backticks or three tildes; anything may follow.
pub(super) fn opening_fence(line: &str) -> Option<Fence> {
    let rest = &line[short_indent(line)?..];
    let marker = rest.chars().next().filter(|&c| c == '`' || c == '~')?;
    let len = rest.bytes().take_while(|&b| b == marker as u8).count();
    (len >= 3).then_some(Fence { marker, len })
}

impl Fence {
    /// Whether `line` closes this fence: at most three spaces or tabs, a
    /// run of the same character at least as long, then only spaces or tabs.
    pub(super) fn is_closed_by(&self, line: &str) -> bool {
        let Some(indent) = short_indent(line) else {
            return false;
        };
        let rest = &line[indent..];
        let run = rest.bytes().take_while(|&b| b == self.marker as u8).count();
        run >= self.len && rest[run..].bytes().all(is_space_or_tab)
    }
}

/// One flag per line: whether it is fenced (an opening line, a closing line
/// or anything between). An unclosed fence runs to the end.
pub(crate) fn fenced_lines(lines: &[&str]) -> Vec<bool> {
    let mut open: Option<Fence> = None;
    let mut fenced = Vec::with_capacity(lines.len());
    for line in lines {
        match open {
            Some(fence) => {
                fenced.push(true);
                if fence.is_closed_by(line) {
                    open = None;
                }
            }
            None => {
                open = opening_fence(line);
                fenced.push(open.is_some());
            }
        }
    }
    fenced
}
