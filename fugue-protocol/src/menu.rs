//! `display-menu`'s items as tmux takes them: `NAME KEY COMMAND` triples, where an
//! empty NAME is a separator line (and takes no KEY or COMMAND), and a NAME starting
//! with `-` is shown dimmed and cannot be chosen.

use crate::keys::Key;

/// Items one menu holds at most: more than any screen shows.
pub const MAX_ITEMS: usize = 256;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MenuEntry {
    Separator,
    Item {
        name: String,
        /// The key that chooses it (tmux's key names; none when empty).
        key: Option<Key>,
        /// A tmux command line.
        command: String,
        /// `-NAME`: shown, not choosable.
        disabled: bool,
    },
}

/// The items of a `display-menu` argv tail.
pub fn parse_items(args: &[String]) -> Result<Vec<MenuEntry>, String> {
    let mut out = Vec::new();
    let mut it = args.iter();
    while let Some(name) = it.next() {
        if out.len() >= MAX_ITEMS {
            return Err(format!("display-menu: more than {MAX_ITEMS} items"));
        }
        if name.is_empty() {
            out.push(MenuEntry::Separator);
            continue;
        }
        let (Some(key), Some(command)) = (it.next(), it.next()) else {
            return Err(format!(
                "display-menu: item `{name}` needs a key and a command (NAME KEY COMMAND)"
            ));
        };
        let key = match key.as_str() {
            "" => None,
            k => Some(Key::parse_named(k)?),
        };
        let (name, disabled) = match name.strip_prefix('-') {
            Some(n) => (n.to_string(), true),
            None => (name.clone(), false),
        };
        out.push(MenuEntry::Item {
            name,
            key,
            command: command.clone(),
            disabled,
        });
    }
    if out.is_empty() {
        return Err("display-menu: no items (give NAME KEY COMMAND ...)".into());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &[&str]) -> Vec<String> {
        s.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn triples_separators_and_disabled_items() {
        let items = parse_items(&v(&[
            "Split",
            "s",
            "split-window",
            "",
            "-Gone",
            "",
            "kill-pane",
        ]))
        .unwrap();
        assert_eq!(items.len(), 3);
        assert_eq!(items[1], MenuEntry::Separator);
        assert!(
            matches!(&items[2], MenuEntry::Item { name, key: None, disabled: true, .. } if name == "Gone")
        );
        assert!(parse_items(&v(&["Split", "s"])).is_err());
        assert!(parse_items(&[]).is_err());
    }
}
