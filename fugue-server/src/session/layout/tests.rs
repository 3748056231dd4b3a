//! Layout tests: geometry, splits, resizes, presets, and a property test of tilings.

use super::*;
use Direction::{Down, Left, Right, Up};
use LayoutPreset::*;
use SplitSize::{Cells, Percent};
use proptest::prelude::*;

const AREA: Rect = r(0, 0, 160, 47);
const PRESETS: [LayoutPreset; 5] = [
    EvenHorizontal,
    EvenVertical,
    MainVertical,
    MainHorizontal,
    Tiled,
];

fn p(n: u32) -> PaneId {
    PaneId(n)
}

const fn r(x: u16, y: u16, width: u16, height: u16) -> Rect {
    Rect {
        x,
        y,
        width,
        height,
    }
}

fn rects(l: &Layout, area: Rect) -> Vec<Rect> {
    l.geometry(area).into_iter().map(|(_, r)| r).collect()
}

fn widths(l: &Layout, area: Rect) -> Vec<u16> {
    rects(l, area).iter().map(|r| r.width).collect()
}

fn spread(v: impl IntoIterator<Item = u16> + Clone) -> u16 {
    v.clone().into_iter().max().unwrap_or(0) - v.into_iter().min().unwrap_or(0)
}

/// Pane 1 split by each (target, new, dir) in turn, new panes taking half.
fn build(splits: &[(u32, u32, Direction)], area: Rect) -> Layout {
    let mut l = Layout::new(p(1));
    for &(target, new, dir) in splits {
        l.split(p(target), p(new), dir, None, area).unwrap();
    }
    l
}

/// Panes 1..=n side by side in equal shares.
fn row(n: u32) -> Layout {
    let splits: Vec<_> = (2..=n).map(|i| (i - 1, i, Right)).collect();
    let mut l = build(&splits, r(0, 0, 999, 9));
    l.apply_preset(EvenHorizontal, p(1), 50);
    l
}

/// Every cell of `area` covered exactly once; with `strict`, every pane at its minimum.
fn check_tiling(l: &Layout, area: Rect, strict: bool) {
    validate(&l.root, None, &mut HashSet::new()).unwrap();
    let geo = l.geometry(area);
    assert_eq!(geo.iter().map(|g| g.0).collect::<Vec<_>>(), l.panes());
    let (w, h) = (usize::from(area.width), usize::from(area.height));
    let mut grid = vec![0u8; w * h];
    for &(id, r) in &geo {
        let inside = r.x >= area.x && r.x + r.width <= area.x + area.width;
        let inside = inside && r.y >= area.y && r.y + r.height <= area.y + area.height;
        assert!(inside, "{id} {r:?} outside {area:?}");
        let big = r.width >= MIN_WIDTH && r.height >= MIN_HEIGHT;
        assert!(big || !strict, "{id} {r:?} below the minimum");
        for y in usize::from(r.y - area.y)..usize::from(r.y - area.y + r.height) {
            for x in usize::from(r.x - area.x)..usize::from(r.x - area.x + r.width) {
                grid[y * w + x] = grid[y * w + x].saturating_add(1);
            }
        }
    }
    assert!(grid.iter().all(|&c| c == 1), "overlaps or gaps in {geo:?}");
}

#[test]
fn split_right_down_right_gives_expected_rects() {
    let mut l = build(&[(1, 2, Right), (2, 3, Down), (3, 4, Right)], AREA);
    let expected = [
        (p(1), r(0, 0, 80, 47)),
        (p(2), r(80, 0, 80, 24)),
        (p(3), r(80, 24, 40, 23)),
        (p(4), r(120, 24, 40, 23)),
    ];
    assert_eq!(l.geometry(AREA), expected);
    l.split(p(1), p(5), Left, None, AREA).unwrap();
    l.split(p(4), p(6), Up, None, AREA).unwrap();
    assert_eq!(l.panes(), [5, 1, 2, 3, 6, 4].map(p));
    assert_eq!(rects(&l, AREA)[0], r(0, 0, 40, 47));
    // A new pane before (above) takes the larger half of 23 rows, as tmux's -b.
    assert_eq!(rects(&l, AREA)[4], r(120, 24, 40, 12));
    check_tiling(&l, AREA, true);
}

#[test]
fn repeated_right_splits_flatten_and_halve() {
    let l = build(&[(1, 2, Right), (2, 3, Right), (3, 4, Right)], AREA);
    assert!(matches!(&l.root, Node::Split { axis: Axis::X, children } if children.len() == 4));
    assert_eq!(widths(&l, AREA), [80, 40, 20, 20]);
}

#[test]
fn percent_and_cells_sizes_and_errors() {
    let mut l = Layout::new(p(1));
    l.split(p(1), p(2), Right, Some(Percent(25)), AREA).unwrap();
    l.split(p(1), p(3), Down, Some(Cells(30)), AREA).unwrap();
    let expected = [r(0, 0, 120, 17), r(0, 17, 120, 30), r(120, 0, 40, 47)];
    assert_eq!(rects(&l, AREA), expected);

    let mut t = Layout::new(p(1));
    let small = r(0, 0, 9, 20);
    let cases = [
        (Right, None, small, 10, 9),
        (Down, Some(Percent(10)), small, 25, 20),
        (Down, Some(Cells(18)), small, 21, 20),
        (Right, None, r(0, 0, 100, 2), 3, 2),
    ];
    let no_room = |needed, available| LayoutError::NoRoom {
        pane: p(1),
        needed,
        available,
    };
    for (dir, size, area, needed, available) in cases {
        let err = t.split(p(1), p(2), dir, size, area).unwrap_err();
        assert_eq!(err, no_room(needed, available));
        assert!(err.to_string().contains("too small to split"));
    }
    for size in [Percent(0), Percent(100), Percent(120), Cells(0), Cells(4)] {
        let err = t.split(p(1), p(2), Right, Some(size), AREA);
        assert!(matches!(err, Err(LayoutError::InvalidSize(_))));
    }
    assert!(matches!(
        t.split(p(1), p(1), Right, None, AREA),
        Err(LayoutError::InvalidSize(_))
    ));
    let err = t.split(p(7), p(2), Right, None, AREA);
    assert_eq!(err, Err(LayoutError::UnknownPane(p(7))));
    assert_eq!(t, Layout::new(p(1)));
}

/// Issue 16: Claude Code splits its lead at 70% once per teammate. `split` refuses
/// once the lead is too narrow; `split_or_even` puts the new pane next to it and evens
/// the row, and refuses only when the row has no room for one more pane.
#[test]
fn split_or_even_evens_a_row_too_narrow_pane_for_the_share_asked() {
    let area = r(0, 0, 200, 50);
    let mut strict = Layout::new(p(0));
    let mut even = Layout::new(p(0));
    for n in 1..=3 {
        strict
            .split(p(0), p(n), Right, Some(Percent(70)), area)
            .unwrap();
        even.split_or_even(p(0), p(n), Right, Some(Percent(70)), area)
            .unwrap();
    }
    assert_eq!(
        widths(&strict, area),
        widths(&even, area),
        "room: the same as split"
    );
    assert_eq!(widths(&even, area)[0], 5);
    assert!(matches!(
        strict.split(p(0), p(4), Right, Some(Percent(70)), area),
        Err(LayoutError::NoRoom { .. })
    ));
    even.split_or_even(p(0), p(4), Right, Some(Percent(70)), area)
        .unwrap();
    assert_eq!(widths(&even, area), vec![40; 5]);
    check_tiling(&even, area, true);
    // A row with no room for one more pane still refuses.
    let narrow = r(0, 0, 10, 50);
    let mut full = Layout::new(p(0));
    full.split(p(0), p(1), Right, None, narrow).unwrap();
    assert!(matches!(
        full.split_or_even(p(0), p(2), Right, Some(Percent(70)), narrow),
        Err(LayoutError::NoRoom { .. })
    ));
    assert_eq!(full.len(), 2);
}

#[test]
fn remove_collapses_and_gives_space_to_the_neighbour() {
    for (gone, left, expected) in [
        (2, [1, 3], [100, 50]),
        (1, [2, 3], [100, 50]),
        (3, [1, 2], [50, 100]),
    ] {
        let mut l = row(3);
        assert!(l.remove(p(gone)));
        assert_eq!(
            (l.panes(), widths(&l, r(0, 0, 150, 9))),
            (left.map(p).to_vec(), expected.to_vec())
        );
    }
    // 1 | (2 over (3 | 4)): removing 2 leaves 3 and 4 in the root row, same widths.
    let mut l = build(&[(1, 2, Right), (2, 3, Down), (3, 4, Right)], AREA);
    assert!(l.remove(p(2)));
    assert!(matches!(&l.root, Node::Split { children, .. } if children.len() == 3));
    assert_eq!(widths(&l, AREA), [80, 40, 40]);
    check_tiling(&l, AREA, true);
    assert!(l.remove(p(3)) && l.remove(p(4)));
    assert_eq!(l, Layout::new(p(1)));
    assert!(!l.remove(p(1)), "the last pane stays");
    assert!(!l.remove(p(9)));
    assert_eq!((l.len(), l.is_empty()), (1, false));
}

#[test]
fn replace_keeps_the_place() {
    let mut l = row(3);
    let before = rects(&l, AREA);
    assert!(l.replace(p(2), p(9)) && rects(&l, AREA) == before);
    assert_eq!(l.panes(), [1, 9, 3].map(p));
    assert!(!l.replace(p(2), p(10)) && !l.replace(p(1), p(3)));
}

#[test]
fn resize_grows_shrinks_and_clamps() {
    let mut l = build(&[(1, 2, Right)], AREA);
    assert!(l.resize(p(1), Right, 10, AREA));
    assert_eq!(widths(&l, AREA), [90, 70]);
    // Pane 2 touches the right edge, so its left border moves right.
    assert!(l.resize(p(2), Right, 10, AREA));
    assert_eq!(widths(&l, AREA), [100, 60]);
    // Pane 1 touches the left edge, so its right border moves left.
    assert!(l.resize(p(1), Left, 5, AREA));
    assert_eq!(widths(&l, AREA), [95, 65]);
    assert!(l.resize(p(2), Right, 1000, AREA));
    assert_eq!(widths(&l, AREA), [160 - MIN_WIDTH, MIN_WIDTH]);
    assert!(!l.resize(p(2), Right, 1, AREA));
    assert!(!l.resize(p(1), Up, 3, AREA), "no border along that axis");
    assert!(!l.resize(p(9), Up, 3, AREA) && !l.resize(p(1), Right, 0, AREA));
}

/// tmux's `resize-pane -x/-y`, which a mouse drag of a border uses: the pane's right
/// (bottom) border moves, or its left (top) one for the last pane.
#[test]
fn resize_to_an_absolute_size() {
    let mut l = row(3);
    let area = r(0, 0, 150, 40);
    assert!(l.resize_to(p(2), false, 30, area));
    assert_eq!(widths(&l, area), [50, 30, 70]);
    assert!(l.resize_to(p(2), false, 60, area));
    assert_eq!(widths(&l, area), [50, 60, 40]);
    // The last pane moves its left border.
    assert!(l.resize_to(p(3), false, 50, area));
    assert_eq!(widths(&l, area), [50, 50, 50]);
    assert!(!l.resize_to(p(3), false, 50, area), "already that size");
    // Minimums hold: the pane gets as near as they allow.
    assert!(l.resize_to(p(1), false, 1, area));
    assert_eq!(widths(&l, area)[0], MIN_WIDTH);
    assert!(!l.resize_to(p(1), true, 10, area), "no border across a row");
    let mut l = build(&[(1, 2, Down)], AREA);
    assert!(l.resize_to(p(1), true, 10, AREA));
    assert_eq!(rects(&l, AREA)[0].height, 10);
    check_tiling(&l, AREA, true);
}

#[test]
fn resize_uses_the_nearest_ancestor_border() {
    let mut l = build(&[(1, 2, Right), (2, 3, Down), (3, 4, Right)], AREA);
    // Pane 3 is first in its own row, so its left border is the root split's.
    assert!(l.resize(p(3), Left, 10, AREA));
    assert_eq!(widths(&l, AREA), [70, 90, 45, 45]);
    // Pane 4's left border is in its own split.
    assert!(l.resize(p(4), Left, 5, AREA));
    assert_eq!(rects(&l, AREA)[3], r(110, 24, 50, 23));
    // Pane 4's top border belongs to its grandparent, the column holding pane 2.
    assert!(l.resize(p(4), Up, 4, AREA));
    assert_eq!(rects(&l, AREA)[1], r(70, 0, 90, 20));
    check_tiling(&l, AREA, true);
    // Growing past a neighbour's minimum takes from the panes beyond it, like tmux.
    let mut l = row(3);
    assert!(l.resize(p(1), Right, 60, r(0, 0, 150, 40)));
    assert_eq!(widths(&l, r(0, 0, 150, 40)), [110, 5, 35]);
}

#[test]
fn neighbors_in_a_grid_and_an_l_shape() {
    let area = r(0, 0, 150, 48);
    let n = |l: &Layout, i, d| l.neighbor(p(i), d, area).map(|p| p.0);
    let all = |l: &Layout, i| [Left, Right, Up, Down].map(|d| n(l, i, d));
    let mut grid = row(4);
    grid.apply_preset(Tiled, p(1), 50);
    assert_eq!(all(&grid, 1), [None, Some(2), None, Some(3)]);
    assert_eq!(all(&grid, 4), [Some(3), None, Some(2), None]);
    assert_eq!((n(&grid, 2, Left), n(&grid, 3, Up)), (Some(1), Some(1)));
    // 1 | (2 over 3): equal overlaps and distances fall back to reading order.
    let mut l = build(&[(1, 2, Right), (2, 3, Down)], area);
    assert_eq!(all(&l, 1), [None, Some(2), None, None]);
    assert_eq!(all(&l, 2), [Some(1), None, None, Some(3)]);
    assert_eq!(all(&l, 3), [Some(1), None, Some(2), None]);
    // Pane 3 now shares more of pane 1's edge than pane 2 does.
    assert!(l.resize(p(2), Up, 10, area));
    assert_eq!((n(&l, 1, Right), n(&l, 9, Right)), (Some(3), None));
    // 4 over (1 | 2 | 3): equal overlaps below 4, so the centre decides.
    l = row(4);
    l.apply_preset(MainHorizontal, p(4), 50);
    assert_eq!(n(&l, 4, Down), Some(2));
}

#[test]
fn presets_for_one_to_seven_panes() {
    let area = r(2, 1, 240, 120);
    for (n, preset) in (1..=7usize).flat_map(|n| PRESETS.map(|preset| (n, preset))) {
        let mut l = row(n as u32);
        // The last pane is the main one, so the main-* presets visibly move it first.
        l.apply_preset(preset, p(n as u32), 60);
        check_tiling(&l, area, true);
        let mut order: Vec<PaneId> = (1..=n as u32).map(p).collect();
        if matches!(preset, MainVertical | MainHorizontal) {
            order.rotate_right(1);
        }
        assert_eq!(l.panes(), order);
        let rs = rects(&l, area);
        let ys: HashSet<u16> = rs.iter().map(|r| r.y).collect();
        let even = |rs: &[Rect], f: fn(&Rect) -> u16| spread(rs.iter().map(f)) <= 1;
        let w: fn(&Rect) -> u16 = |r| r.width;
        let h: fn(&Rect) -> u16 = |r| r.height;
        let (main, rest, cols) = (rs[0], &rs[1..], (1..).find(|c| c * c >= n).unwrap());
        let same_y = |row: &[Rect]| row.iter().all(|r| r.y == row[0].y);
        let ok = match preset {
            _ if n == 1 => rs == [area],
            EvenHorizontal => ys.len() == 1 && even(&rs, w),
            EvenVertical => ys.len() == n && even(&rs, h),
            MainVertical => main == r(2, 1, 144, 120) && rest.iter().all(|r| r.x == 146),
            MainHorizontal => main == r(2, 1, 240, 72) && rest.iter().all(|r| r.y == 73),
            // Rows filled in turn, each row's panes sharing its full width.
            Tiled => ys.len() == n.div_ceil(cols) && rs.chunks(cols).all(same_y),
        };
        let even_rest = match preset {
            MainVertical => even(rest, h),
            MainHorizontal => even(rest, w),
            Tiled => rs.chunks(cols).all(|row| even(row, w)) && even(&rs, h),
            _ => true,
        };
        assert!(
            ok && (n == 1 || even_rest),
            "{preset:?} with {n} panes: {rs:?}"
        );
    }
    // A main pane that is not here, and a percentage out of range.
    let mut l = row(3);
    l.apply_preset(MainVertical, p(42), 0);
    assert_eq!(
        (l.panes(), widths(&l, AREA)[0]),
        ([1, 2, 3].map(p).to_vec(), MIN_WIDTH)
    );
}

#[test]
fn serde_round_trip_and_validation() {
    let mut l = build(&[(1, 2, Right), (2, 3, Down)], AREA);
    l.resize(p(1), Right, 7, AREA);
    let back: Layout = serde_json::from_str(&serde_json::to_string(&l).unwrap()).unwrap();
    assert_eq!(back, l);
    let child = |w, id| format!(r#"{{"weight":{w},"node":{{"Pane":{id}}}}}"#);
    for kids in [
        child(1, 1),
        child(1, 1) + "," + &child(1, 1),
        child(0, 1) + "," + &child(1, 2),
    ] {
        let json = format!(r#"{{"root":{{"Split":{{"axis":"X","children":[{kids}]}}}}}}"#);
        assert!(serde_json::from_str::<Layout>(&json).is_err(), "{json}");
    }
}

#[derive(Clone, Debug)]
enum Op {
    Split(usize, Direction, Option<SplitSize>),
    Remove(usize),
    Resize(usize, Direction, u16),
    Preset(LayoutPreset, usize, u8),
    Window(u16, u16),
}

fn op() -> impl Strategy<Value = Op> {
    let dir = || prop::sample::select(vec![Left, Right, Up, Down]);
    let size = prop_oneof![
        Just(None),
        (0u8..=120).prop_map(|p| Some(Percent(p))),
        (0u16..200).prop_map(|c| Some(Cells(c))),
    ];
    let preset = prop::sample::select(PRESETS.to_vec());
    prop_oneof![
        5 => (any::<usize>(), dir(), size).prop_map(|(i, d, s)| Op::Split(i, d, s)),
        2 => any::<usize>().prop_map(Op::Remove),
        3 => (any::<usize>(), dir(), 0u16..80).prop_map(|(i, d, a)| Op::Resize(i, d, a)),
        1 => (preset, any::<usize>(), any::<u8>()).prop_map(|(p, i, m)| Op::Preset(p, i, m)),
        1 => (1u16..300, 1u16..100).prop_map(|(w, h)| Op::Window(w, h)),
    ]
}

proptest! {
    #[test]
    fn random_operations_keep_an_exact_tiling(
        w in 1u16..300,
        h in 1u16..100,
        ops in proptest::collection::vec(op(), 0..60),
    ) {
        let (mut area, mut l, mut next) = (r(3, 2, w, h), Layout::new(p(0)), 1);
        let roomy = |l: &Layout, a: Rect| {
            let n = l.len() as u16;
            a.width >= n * MIN_WIDTH && a.height >= n * MIN_HEIGHT
        };
        for op in ops {
            let panes = l.panes();
            let pick = |i: usize| panes[i % panes.len()];
            let before = l.geometry(area);
            match op {
                Op::Split(i, dir, size) => {
                    if l.split(pick(i), p(next), dir, size, area).is_ok() {
                        next += 1;
                        // Splitting a pane leaves every other pane where it was.
                        let after = l.geometry(area);
                        let moved = before.iter().any(|g| g.0 != pick(i) && !after.contains(g));
                        prop_assert!(!roomy(&l, area) || !moved);
                    }
                }
                Op::Remove(i) => {
                    let n = l.len();
                    prop_assert_eq!(l.remove(pick(i)), n > 1);
                    prop_assert_eq!(l.len(), n.saturating_sub(1).max(1));
                }
                Op::Resize(i, dir, amount) => {
                    if !l.resize(pick(i), dir, amount, area) {
                        prop_assert_eq!(l.geometry(area), before);
                    }
                }
                Op::Preset(preset, i, pct) => l.apply_preset(preset, pick(i), pct),
                Op::Window(w, h) => area = r(3, 2, w, h),
            }
            check_tiling(&l, area, roomy(&l, area));
            for d in [Left, Right, Up, Down] {
                let _ = l.neighbor(pick(0), d, area);
            }
        }
    }
}

/// `split-window -f`: the new pane spans the whole window's height (or width), the
/// panes there keep their shares of the rest, and the tree stays valid (no nested
/// split on one axis).
#[test]
fn a_full_split_spans_the_window() {
    let mut l = build(&[(1, 2, Down), (2, 3, Right)], AREA);
    l.split_full(p(4), Right, Some(Percent(25)), AREA).unwrap();
    let g = l.geometry(AREA);
    let four = g
        .iter()
        .find(|(id, _)| *id == p(4))
        .map(|(_, r)| *r)
        .unwrap();
    assert_eq!((four.y, four.height), (0, AREA.height), "{g:?}");
    assert_eq!(four.x + four.width, AREA.width, "{g:?}");
    assert_eq!(four.width, 40, "{g:?}");
    // Again on the same axis: one flat row, every share kept.
    l.split_full(p(5), Left, None, AREA).unwrap();
    let json = serde_json::to_string(&l).unwrap();
    let back: Layout = serde_json::from_str(&json).unwrap();
    assert_eq!(back, l);
    let five = l
        .geometry(AREA)
        .into_iter()
        .find(|(id, _)| *id == p(5))
        .unwrap()
        .1;
    assert_eq!((five.x, five.height), (0, AREA.height));
    assert!(
        l.split_full(p(5), Down, None, AREA).is_err(),
        "a pane already there"
    );
    assert!(l.split_full(p(6), Down, Some(Percent(100)), AREA).is_err());
}
