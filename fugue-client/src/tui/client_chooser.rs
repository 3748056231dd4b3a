//! `choose-client` (`C-b D`): the terminal clients attached to the server, one line
//! each as tmux's client mode lists them (`NAME: session S [WxH TERM]`). Up/Down (k/j)
//! move, Enter runs the template on the selected client (`%%` its name; tmux's
//! default `detach-client -t '%%'`), d detaches it, z suspends it, q or Escape leave.

use super::input::Request;
use super::state::{App, Mode, Pending};
use fugue_protocol::cmd;
use fugue_protocol::keys::{Key, KeyCode, Mods};
use fugue_protocol::{ClientInfo, Command};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear, Paragraph, Widget};

/// What the `list-clients` request of the chooser is called.
pub const LIST: &str = "choose-client";

/// tmux's default template.
const DEFAULT_TEMPLATE: &str = "detach-client -t '%%'";

#[derive(Debug)]
pub struct ClientList {
    template: String,
    /// None until the server has answered.
    items: Option<Vec<ClientInfo>>,
    selected: usize,
}

fn list_request() -> Request {
    Request {
        command: Command::ListClients(cmd::ListClients { target: None }),
        pending: Pending::Action(LIST),
    }
}

/// `choose-client [-NrZ] [-F] [-f] [-K] [-O] [-t] [template]`, as the verb table
/// parses it.
pub fn open(app: &mut App, argv: &[String]) -> Result<Vec<Request>, String> {
    let a: fugue_protocol::flags::ChooseClient = fugue_verbs::line::parse_flags(argv)?;
    let template = match a.template.as_slice() {
        [] => DEFAULT_TEMPLATE.to_string(),
        [one] => one.clone(),
        words => fugue_protocol::tmux_cmd::print_sequence(&[words.to_vec()]),
    };
    app.mode = Mode::Clients(ClientList {
        template,
        items: None,
        selected: 0,
    });
    app.damage_all();
    Ok(vec![list_request()])
}

/// The server's answer to [`LIST`]: the terminal clients (control clients are not
/// listed: they have no terminal to detach from, as tmux's client mode skips them).
pub fn listed(app: &mut App, list: Vec<ClientInfo>) {
    if let Mode::Clients(c) = &mut app.mode {
        let list: Vec<ClientInfo> = list.into_iter().filter(|c| !c.control_mode).collect();
        c.selected = c.selected.min(list.len().saturating_sub(1));
        c.items = Some(list);
    }
    app.damage_all();
}

/// A key while the chooser is open.
pub fn on_key(app: &mut App, mut c: ClientList, key: Key) -> Vec<Request> {
    let count = c.items.as_ref().map_or(0, Vec::len);
    let selected = c
        .items
        .as_ref()
        .and_then(|l| l.get(c.selected))
        .map(|i| i.name.clone());
    app.damage_all();
    let plain = !key.mods.contains(Mods::CTRL);
    match key.code {
        KeyCode::Char('q') | KeyCode::Escape => return Vec::new(),
        KeyCode::Char('c' | 'g') if !plain => return Vec::new(),
        KeyCode::Up | KeyCode::Char('k') => c.selected = c.selected.saturating_sub(1),
        KeyCode::Down | KeyCode::Char('j') => {
            c.selected = (c.selected + 1).min(count.saturating_sub(1))
        }
        KeyCode::Enter => {
            let Some(name) = selected else {
                return Vec::new();
            };
            let line = fugue_verbs::tree::substitute(&c.template, &name);
            return app.run_line(&line);
        }
        KeyCode::Char(k @ ('d' | 'z')) if plain => {
            if let Some(name) = selected {
                let command = if k == 'd' {
                    Command::DetachClient(cmd::DetachClient {
                        target: None,
                        client: Some(name),
                        all_others: false,
                        hangup_parent: false,
                        exec: None,
                    })
                } else {
                    Command::SuspendClient(cmd::SuspendClient { client: Some(name) })
                };
                app.mode = Mode::Clients(c);
                return vec![
                    Request {
                        command,
                        pending: Pending::Action(if k == 'd' {
                            "detach-client"
                        } else {
                            "suspend-client"
                        }),
                    },
                    list_request(),
                ];
            }
        }
        _ => {}
    }
    app.mode = Mode::Clients(c);
    Vec::new()
}

/// A client's line: `NAME: session S [WxH TERM]` (tmux's client mode's fields).
fn line(c: &ClientInfo) -> String {
    format!(
        "{}: session {} [{}x{} {}]",
        c.name,
        c.session_name.as_deref().unwrap_or("-"),
        c.width,
        c.height,
        c.termname
    )
}

/// Draws the chooser over the panes.
pub fn draw(buf: &mut Buffer, c: &ClientList, area: Rect) {
    let mut lines: Vec<Line> = Vec::new();
    match &c.items {
        None => lines.push(Line::from("...")),
        Some(l) if l.is_empty() => lines.push(Line::from("(no clients)")),
        Some(items) => {
            for (i, item) in items.iter().enumerate() {
                let style = if i == c.selected {
                    Style::default().add_modifier(Modifier::REVERSED)
                } else {
                    Style::default()
                };
                lines.push(Line::styled(line(item), style));
            }
        }
    }
    let w = area.width.saturating_sub(4).min(100);
    let rows = u16::try_from(lines.len()).unwrap_or(u16::MAX);
    let h = rows.saturating_add(2).min(area.height).max(3);
    let popup = Rect::new(
        area.x + area.width.saturating_sub(w) / 2,
        area.y + area.height.saturating_sub(h) / 2,
        w,
        h,
    );
    Clear.render(popup, buf);
    Paragraph::new(lines)
        .block(
            Block::bordered()
                .title(" choose-client: Enter runs, d detaches, z suspends, q leaves ")
                .border_style(Style::default().fg(Color::Yellow)),
        )
        .render(popup, buf);
}
