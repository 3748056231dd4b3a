//! The engine construct by construct. Expected values are what tmux 3.3a's
//! `display-message -p` printed for the same formats on a session `main` (window 0
//! `bash`, one 80x24 pane); fugue-client's e2e test `formats_match_tmux` compares the
//! two live.

use super::*;
use std::collections::HashMap;

fn ctx() -> HashMap<String, String> {
    [
        ("session_name", "main"),
        ("window_index", "0"),
        ("window_name", "bash"),
        ("pane_active", "1"),
        ("pane_in_mode", "0"),
        ("path", "/usr/local/bin"),
        ("v", "a b;c$d~e#f"),
        ("e", "#{session_name}"),
        ("t", "%H"),
        ("host", "vm.example.org"),
        ("host_short", "vm"),
        ("created", "1445765102"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect()
}

fn x(f: &str) -> String {
    expand(f, &ctx())
}

#[test]
fn variables_aliases_and_escapes() {
    assert_eq!(x("#{session_name}:#{window_index}"), "main:0");
    assert_eq!(x("#S:#I.#W #H #h"), "main:0.bash vm.example.org vm");
    assert_eq!(x("#{unknown}x"), "x");
    assert_eq!(x("#Z#x#"), "#Z#x#");
    assert_eq!(x("#,#}##"), ",}#");
    assert_eq!(x("#{#{session_name}xx}"), "mainxx");
    assert_eq!(x("#{e}"), "#{session_name}");
    assert_eq!(x("日本#{session_name}語"), "日本main語");
}

#[test]
fn malformed_replacements_end_the_text_as_in_tmux() {
    assert_eq!(x("a#{session_name"), "a");
    assert_eq!(x("a#{?1,b}c"), "a");
    assert_eq!(x("a#{==:a}b"), "a");
    assert_eq!(x("a#(unclosed"), "a");
}

#[test]
fn conditionals() {
    assert_eq!(x("#{?#{==:a,a},x,y}"), "x");
    assert_eq!(x("#{?0,a,b}"), "b");
    assert_eq!(x("#{?,a,b}"), "b");
    assert_eq!(x("#{?nope,a,b}"), "b");
    assert_eq!(x("#{?session_name,a,b}"), "a");
    assert_eq!(x("#{?pane_in_mode,a,b}"), "b");
    // A condition that is no variable and does not change when expanded is false.
    assert_eq!(x("#{?1,b,c}"), "c");
    assert_eq!(x("#{?,a,1,c,d}"), "1,c,d");
    assert_eq!(x("#{?pane_active,a#,b,c}"), "a,b");
    assert_eq!(x("#{?#{==:1,1},#{l:a,b},c}"), "a,b");
    assert_eq!(x("#{?pane_active,#{?0,x,#[fg=red]y},z}"), "#[fg=red]y");
}

#[test]
fn comparisons_and_logic() {
    assert_eq!(x("#{==:#{session_name},main}"), "1");
    assert_eq!(x("#{!=:a,b}"), "1");
    assert_eq!(x("#{<:a,b}#{>:a,b}#{<=:a,a}#{>=:a,b}"), "1010");
    assert_eq!(x("#{||:0,}#{||:0,x}#{&&:1,x}#{&&:1,0}"), "0110");
    assert_eq!(x("#{==:a,b,c}"), "0");
    assert_eq!(x("#{!:1}"), "");
}

#[test]
fn matching() {
    assert_eq!(x("#{m:m*,main}#{m:*,}#{m:x*,main}"), "110");
    assert_eq!(x("#{m/r:^ma,main}#{m/ri:^MA,main}#{m/r:^MA,main}"), "110");
    assert_eq!(x("#{m:a,b,c}"), "0");
    assert_eq!(x("#{m/r:(,x}"), "0");
}

#[test]
fn trimming_and_padding() {
    assert_eq!(x("#{=3;p6:session_name}|"), "mai   |");
    assert_eq!(x("#{p6;=3:session_name}|"), "mai   |");
    assert_eq!(x("#{=/2/...:session_name}"), "ma...");
    assert_eq!(x("#{=|2|..:session_name}"), "ma..");
    assert_eq!(x("#{=-2:session_name}"), "in");
    assert_eq!(x("#{=-2/...:session_name}"), "main");
    assert_eq!(x("#{=0:session_name}#{=-10:session_name}"), "mainmain");
    assert_eq!(x("#{p-6:session_name}|"), "  main|");
    assert_eq!(x("#{p3:#{l:abcdef}}"), "abcdef");
    assert_eq!(x("#{=2:#{l:日本語}}"), "日");
    assert_eq!(x("#{p5:#{l:日}}|"), "日   |");
    assert_eq!(x("#{=3:#{l:abcdef}}"), "abc");
}

#[test]
fn lengths_and_widths() {
    assert_eq!(x("#{n:session_name}#{w:session_name}"), "44");
    assert_eq!(x("#{n;=2:session_name}"), "2");
    assert_eq!(x("#{n:#{l:aé}} #{w:#{l:a日}}"), "3 3");
}

#[test]
fn substitution() {
    assert_eq!(x("#{s/a/X/:session_name}"), "mXin");
    assert_eq!(x("#{s/A/X/i:session_name}"), "mXin");
    assert_eq!(x("#{s/(.)a/\\1X/:session_name}"), "mXin");
    assert_eq!(x("#{s/a/b:session_name}#{s|a|b|:session_name}"), "mbinmbin");
    assert_eq!(x("#{s/a/:session_name}"), "main");
    assert_eq!(x("#{=5;s/m/M/:session_name}"), "Main");
    assert_eq!(x("#{s/s/S/;=3:e}"), "#{S");
}

#[test]
fn literal_expand_and_time() {
    assert_eq!(x("#{l:#{x}}"), "#{x}");
    assert_eq!(x("#{E:e}"), "main");
    assert_eq!(x("#{=3:e}#{E;=3:e}"), "#{smai");
    assert_eq!(x("#{E:#{l:#S}}"), "main");
    assert_eq!(x("#{T:t}"), "00");
    assert_eq!(x("#{t:created}"), "Sun Oct 25 09:25:02 2015");
    assert_eq!(x("#{t/f/%H#:%M:created}"), "09:25");
    assert_eq!(
        expand_time("%%H %Y #{session_name}", &ctx()),
        "%H 1970 main"
    );
}

#[test]
fn paths_and_quoting() {
    assert_eq!(x("#{b:path} #{d:path}"), "bin /usr/local");
    assert_eq!(x("#{b:#{l:/a/b/c}}"), "/a/b/c");
    assert_eq!(x("#{q:v}"), "a\\ b\\;c\\$d\\~e\\#f");
    assert_eq!(x("#{q/h:v}"), "a b;c$d~e##f");
}

#[test]
fn arithmetic_and_characters() {
    assert_eq!(
        x("#{e|+|:1,2} #{e|/|:7,2} #{e|/|f|3:7,2} #{e|m|:7,3}"),
        "3 3 3.500 1"
    );
    assert_eq!(
        x("#{e|+|f:1,2}#{e|<|:1,2}#{e|==|:2,2}#{e|-|:1,5}"),
        "3.0011-4"
    );
    assert_eq!(x("#{e|+|:#{window_index},1}"), "1");
    assert_eq!(x("a#{e|+|:x,2}b"), "a");
    assert_eq!(x("#{e|*|:3}"), "");
    assert_eq!(x("#{a:98}#{a:1}"), "b");
    assert_eq!(x("#{c:red}"), "800000");
}

#[test]
fn shell_commands_ask_the_context() {
    struct Jobs;
    impl FormatContext for Jobs {
        fn var(&self, name: &str) -> Option<String> {
            (name == "n").then(|| "2".to_string())
        }
        fn shell_output(&self, command: &str) -> Option<String> {
            (command == "echo 2 (x)").then(|| "out".to_string())
        }
    }
    assert_eq!(expand("a#(echo #{n} (x))b#(other)c", &Jobs), "aoutbc");
}

/// A context with two sessions, the first with two windows.
struct Tree {
    session: usize,
    window: Option<usize>,
    pane: Option<usize>,
}

const TREE: [(&str, &[&[&str]]); 2] = [("a", &[&["0", "1"], &["2"]]), ("b", &[&["3"]])];

impl FormatContext for Tree {
    fn var(&self, name: &str) -> Option<String> {
        let (s, windows) = TREE[self.session];
        match name {
            "session_name" => Some(s.to_string()),
            "window_index" => self.window.map(|w| w.to_string()),
            "pane_id" => self
                .pane
                .map(|p| windows[self.window.unwrap_or(0)][p].to_string()),
            _ => None,
        }
    }
    fn sessions(&self) -> Vec<LoopItem<'_>> {
        (0..TREE.len())
            .map(|s| LoopItem {
                ctx: Box::new(Tree {
                    session: s,
                    window: Some(0),
                    pane: Some(0),
                }),
                current: s == self.session,
            })
            .collect()
    }
    fn windows(&self) -> Vec<LoopItem<'_>> {
        (0..TREE[self.session].1.len())
            .map(|w| LoopItem {
                ctx: Box::new(Tree {
                    session: self.session,
                    window: Some(w),
                    pane: Some(0),
                }),
                current: Some(w) == self.window,
            })
            .collect()
    }
    fn panes(&self) -> Vec<LoopItem<'_>> {
        let w = self.window.unwrap_or(0);
        (0..TREE[self.session].1[w].len())
            .map(|p| LoopItem {
                ctx: Box::new(Tree {
                    session: self.session,
                    window: Some(w),
                    pane: Some(p),
                }),
                current: Some(p) == self.pane,
            })
            .collect()
    }
}

#[test]
fn loops() {
    let t = Tree {
        session: 0,
        window: Some(0),
        pane: Some(0),
    };
    assert_eq!(expand("#{S:#S }", &t), "a b ");
    assert_eq!(expand("#{S:#{session_name},x}", &t), "a,xb,x");
    assert_eq!(expand("#{W:#I,[#I]}", &t), "[0]1");
    assert_eq!(expand("#{W:<#I>}", &t), "<0><1>");
    assert_eq!(expand("#{P:#D,[#D]}", &t), "[0]1");
    assert_eq!(expand("#{S:#{W:#S#I#{P:.#D}}|}", &t), "a0.0.1a1.2|b0.3|");
    assert_eq!(expand("#{N/s:b}#{N/s:c}#{N:x}", &t), "100");
}

#[test]
fn hostile_input_is_bounded() {
    // Deep nesting, huge padding, self-expanding variables and multiplying loops all
    // end, within the output limit.
    let deep = "#{E:".repeat(10_000) + &"}".repeat(10_000);
    assert!(x(&deep).len() <= MAX_OUTPUT);
    assert_eq!(x("#{p999999999999:session_name}").len(), MAX_OUTPUT);
    let mut c = ctx();
    c.insert("self".into(), "#{E:self}#{E:self}".into());
    assert!(expand("#{E:self}", &c).len() <= MAX_OUTPUT);
    let t = Tree {
        session: 0,
        window: Some(0),
        pane: Some(0),
    };
    let many = "#{S:#{S:#{S:#{S:#{S:#{S:#{S:#{S:#{S:#{S:#{S:#{S:xxxxxxxx}}}}}}}}}}}}";
    assert!(expand(many, &t).len() <= MAX_OUTPUT);
    assert!(x(&"#{".repeat(100_000)).is_empty());
    assert!(x(&"#{?".repeat(50_000)).is_empty());
}

mod quoting {
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// `#{q:}` makes one sh word of any string without NUL: sh gives it back.
        #[test]
        fn quote_round_trips_through_sh(s in "[^\u{0}]{0,40}") {
            let q = super::quote_shell(&s);
            let out = std::process::Command::new("sh")
                .arg("-c")
                .arg(format!("printf '%s' {q}"))
                .output()
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(String::from_utf8_lossy(&out.stdout), s.as_str());
        }
    }
}

#[test]
fn a_listing_asks_for_the_names_that_may_be_options_or_environment() {
    let names = super::value_names([
        "#{window_name} #{?automatic-rename,auto,fixed} #{@theme_fg}",
        "#{T:status-left}#{E:@chain}#{MY_ENV}#{==:#{pane_id},%1}#{@theme_fg}#{@}",
    ]);
    assert_eq!(
        names,
        [
            "automatic-rename",
            "@theme_fg",
            "status-left",
            "@chain",
            "MY_ENV"
        ]
    );
    let many: String = (0..100).map(|i| format!("#{{@o{i}}}")).collect();
    assert_eq!(
        super::value_names([many.as_str()]).len(),
        crate::limits::MAX_LISTED_VALUES
    );
}
