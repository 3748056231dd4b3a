//! `search-panes` from a line and upward, as the terminal client's scroll-mode search
//! uses it: line numbers that `read-rows` takes as they are, nearest match first.

use crate::agent_rig::*;
use fugue_protocol::cmd;
use fugue_protocol::observe::SearchPanes;

async fn lines(rig: &Rig, pane: PaneId, from_line: Option<i64>, backward: bool) -> Vec<i64> {
    let r = dispatch(
        &rig.server,
        &PERSON,
        Command::SearchPanes(SearchPanes {
            pattern: "^(7|77|117)$".into(),
            targets: vec![Target::Pane(pane)],
            history: true,
            offset: 0,
            limit: 50,
            from_line,
            backward,
            absolute: false,
        }),
    )
    .await
    .unwrap();
    match r {
        Response::Found(f) => {
            assert_eq!(f.total as usize, f.matches.len());
            f.matches.iter().map(|m| m.line).collect()
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn search_goes_either_way_from_a_line_and_its_lines_are_scroll_offsets() {
    let rig = Rig::new(|_| {});
    let pane = rig.person_session("find").await;
    rig.type_line(&pane.to_string(), "seq 1 120").await;
    eventually("120 printed", || {
        screen(&rig.server, &pane.to_string())
            .lines()
            .any(|l| l == "120")
            .then_some(())
    })
    .await;
    let all = lines(&rig, pane, None, false).await;
    let [l7, l77, l117] = all[..] else {
        panic!("{all:?}")
    };
    assert!(l7 < 0 && l7 < l77 && l77 < l117, "{all:?}");
    // Backward: nearest first, and only lines above the one given.
    assert_eq!(lines(&rig, pane, None, true).await, vec![l117, l77, l7]);
    assert_eq!(lines(&rig, pane, Some(l117), true).await, vec![l77, l7]);
    assert_eq!(lines(&rig, pane, Some(l7), true).await, Vec::<i64>::new());
    // Forward: only lines below the one given.
    assert_eq!(lines(&rig, pane, Some(l7), false).await, vec![l77, l117]);
    assert_eq!(
        lines(&rig, pane, Some(l117), false).await,
        Vec::<i64>::new()
    );
    // A match's line is where `read-rows` starts to show it.
    for (line, text) in [(l7, "7"), (l117, "117")] {
        let r = dispatch(
            &rig.server,
            &PERSON,
            Command::ReadRows(cmd::ReadRows {
                target: Some(Target::Pane(pane)),
                start: line,
                count: 1,
                absolute: false,
            }),
        )
        .await
        .unwrap();
        let Response::Rows(rows) = r else {
            panic!("{r:?}")
        };
        assert_eq!(rows.start, line);
        assert_eq!(rows.rows[0].text, text);
    }
}
