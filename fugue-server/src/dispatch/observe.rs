//! Reading panes for agents, and searching them.

use super::Exec;
use crate::pane::lines::LineCursor;
use crate::pane::lines::PageCursor;
use fugue_protocol::observe::{ReadPane, ReadSource, SearchMatch, SearchPanes, SearchResult};
use fugue_protocol::{CommandError, PaneId, Response, Target};

/// Compiles a caller's pattern with a size limit, naming the argument on failure.
pub fn compile(argument: &str, pattern: &str) -> Result<regex::Regex, CommandError> {
    regex::RegexBuilder::new(pattern)
        .size_limit(1 << 20)
        .build()
        .map_err(|e| {
            CommandError::invalid_argument(argument, format!("not a valid regex: {e}"))
                .with_suggestion("escape regex characters in literal text with a backslash (\\( \\[ \\. \\*); Rust regex syntax")
        })
}

/// A cursor from this server for `pane`, or an error that says what went wrong.
pub fn check_cursor(exec: &Exec<'_>, text: &str, pane: PaneId) -> Result<LineCursor, CommandError> {
    let c = LineCursor::decode(text)?;
    if c.instance != exec.server.instance || c.pane != pane {
        return Err(CommandError::invalid_argument(
            "cursor",
            format!(
                "the cursor belongs to pane {} of an earlier server or another pane, not {pane}",
                c.pane
            ),
        )
        .with_suggestion("the pane was replaced; read it again without a cursor"));
    }
    Ok(c)
}

/// The target a cursor implies when the caller names none.
pub fn target_or_cursor(target: Option<Target>, cursor: Option<&str>) -> Option<Target> {
    target.or_else(|| {
        cursor
            .and_then(|c| {
                LineCursor::decode(c)
                    .ok()
                    .or_else(|| PageCursor::decode(c).map(|p| p.start))
            })
            .map(|c| Target::Pane(c.pane))
    })
}

pub fn read_pane(exec: &mut Exec<'_>, c: ReadPane) -> Result<Response, CommandError> {
    let cursor_text = match &c.source {
        ReadSource::Since(s) => Some(s.clone()),
        _ => None,
    };
    let target = target_or_cursor(c.target, cursor_text.as_deref());
    let tree = exec.server.mux.tree();
    let id = tree.resolve_pane(target.as_ref(), &exec.ctx)?;
    exec.resolved = Some(id.to_string());
    let pane = tree
        .panes
        .get(&id)
        .ok_or_else(|| CommandError::internal("pane vanished"))?;
    let instance = exec.server.instance;
    let text = {
        let st = pane.shared.state.lock();
        match c.source {
            ReadSource::Screen => st.read_screen(id, c.lines, c.ansi, instance),
            ReadSource::Scrollback => st.read_scrollback(id, c.lines, c.ansi, instance),
            ReadSource::Since(s) if PageCursor::decode(&s).is_some() => {
                let page = PageCursor::decode(&s)
                    .ok_or_else(|| CommandError::internal("page cursor vanished"))?;
                check_cursor(exec, &page.start.encode(), id)?;
                st.read_page(id, &page, c.lines, c.ansi, instance)
            }
            ReadSource::Since(s) => {
                let cursor = check_cursor(exec, &s, id)?;
                st.read_since(id, st.line_of(&cursor), c.lines, c.ansi, instance)
            }
        }
    };
    Ok(Response::Read(text))
}

/// Longest line text a match carries.
const MATCH_TEXT_MAX: usize = 500;

pub fn search_panes(exec: &mut Exec<'_>, c: SearchPanes) -> Result<Response, CommandError> {
    let re = compile("pattern", &c.pattern)?;
    let limit = if c.limit == 0 { 50 } else { c.limit.min(500) } as usize;
    let tree = exec.server.mux.tree();
    let panes: Vec<PaneId> = if c.targets.is_empty() {
        let mut all: Vec<PaneId> = tree
            .panes
            .keys()
            .copied()
            .filter(|p| exec.scope.allows(*p))
            .collect();
        all.sort();
        all
    } else {
        c.targets
            .iter()
            .map(|t| tree.resolve_pane(Some(t), &exec.ctx))
            .collect::<Result<_, _>>()?
    };
    let mut matches = Vec::new();
    let mut total = 0u32;
    let offset = c.offset as usize;
    for id in panes {
        let Some(pane) = tree.panes.get(&id) else {
            continue;
        };
        let st = pane.shared.state.lock();
        let top = st.history_total();
        let mut first = if c.history { st.history_dropped() } else { top };
        let mut last = st.last_content_line();
        // `from_line` is relative to the top of the screen; only lines past it count.
        if let Some(from) = c.from_line {
            let from = if c.absolute {
                i128::from(from)
            } else {
                i128::from(top) + i128::from(from)
            };
            let clamp = |n: i128| n.clamp(0, i128::from(u64::MAX)) as u64;
            if c.backward {
                if from < 1 {
                    continue;
                }
                last = last.min(clamp(from - 1));
            } else {
                first = first.max(clamp(from + 1));
            }
        }
        if first > last {
            continue;
        }
        let lines: Box<dyn Iterator<Item = u64>> = if c.backward {
            Box::new((first..=last).rev())
        } else {
            Box::new(first..=last)
        };
        for n in lines {
            let Some(text) = st.abs_line(n, false) else {
                continue;
            };
            if !re.is_match(&text) {
                continue;
            }
            let i = total as usize;
            total = total.saturating_add(1);
            if i >= offset && matches.len() < limit {
                let mut text = text;
                if text.len() > MATCH_TEXT_MAX {
                    let cut = (0..=MATCH_TEXT_MAX)
                        .rev()
                        .find(|i| text.is_char_boundary(*i))
                        .unwrap_or(0);
                    text.truncate(cut);
                }
                matches.push(SearchMatch {
                    pane: id,
                    line: if c.absolute {
                        i64::try_from(n).unwrap_or(i64::MAX)
                    } else {
                        n as i64 - top as i64
                    },
                    text,
                });
            }
        }
    }
    let next = offset + matches.len();
    Ok(Response::Found(SearchResult {
        matches,
        total,
        next_offset: ((next as u32) < total).then_some(next as u32),
    }))
}

super::handler!(fugue_protocol::ReadPane, |exec, c| read_pane(exec, c));
super::handler!(fugue_protocol::SearchPanes, |exec, c| search_panes(exec, c));
