//! Sharing a split's cells among its children: by weight, with minimums, in whole
//! cells that always add up.

use super::{Axis, Child, Rect};
use std::cmp::Reverse;

/// Cells along `axis` for each child of a split that fills `rect`.
pub(super) fn child_extents(axis: Axis, children: &[Child], rect: Rect) -> Vec<u16> {
    let weights: Vec<u32> = children.iter().map(|c| c.weight.max(1)).collect();
    let mins: Vec<u16> = children.iter().map(|c| c.node.min_extent(axis)).collect();
    distribute(axis.extent(rect), &weights, &mins)
}

/// Shares `total` cells out by weight, giving every child at least its minimum when the
/// total allows: children whose proportional share falls short are pinned at their
/// minimum and the rest is shared again among the others, until nobody falls short.
pub(super) fn distribute(total: u16, weights: &[u32], mins: &[u16]) -> Vec<u16> {
    if mins.iter().map(|&m| u32::from(m)).sum::<u32>() > u32::from(total) {
        // Something must go below its minimum; shrinking in proportion to the minimums
        // keeps every pane as visible as possible and the tiling exact.
        let by_min: Vec<u32> = mins.iter().map(|&m| u32::from(m.max(1))).collect();
        return largest_remainder(total, &by_min);
    }
    let mut sizes: Vec<Option<u16>> = vec![None; weights.len()];
    loop {
        let free: Vec<usize> = (0..weights.len()).filter(|&i| sizes[i].is_none()).collect();
        let rest = total.saturating_sub(sizes.iter().flatten().sum());
        let weight_sum: u128 = free.iter().map(|&i| u128::from(weights[i])).sum();
        let falls_short =
            |i: usize| u128::from(rest) * u128::from(weights[i]) < u128::from(mins[i]) * weight_sum;
        let short: Vec<usize> = free.iter().copied().filter(|&i| falls_short(i)).collect();
        if short.is_empty() {
            let free_weights: Vec<u32> = free.iter().map(|&i| weights[i]).collect();
            for (&i, size) in free.iter().zip(largest_remainder(rest, &free_weights)) {
                sizes[i] = Some(size);
            }
            return sizes.into_iter().map(|s| s.unwrap_or(0)).collect();
        }
        short.into_iter().for_each(|i| sizes[i] = Some(mins[i]));
    }
}

/// Proportional integer shares of `total` that add up to exactly `total`: floors first,
/// then the leftover cells go to the largest remainders (earlier children win ties).
pub(super) fn largest_remainder(total: u16, weights: &[u32]) -> Vec<u16> {
    let total = u64::from(total);
    let sum: u64 = weights.iter().map(|&w| u64::from(w)).sum();
    if sum == 0 {
        return vec![0; weights.len()];
    }
    let share = |i: usize| total * u64::from(weights[i]);
    let mut sizes: Vec<u64> = (0..weights.len()).map(|i| share(i) / sum).collect();
    let mut order: Vec<usize> = (0..weights.len()).collect();
    order.sort_by_key(|&i| Reverse(share(i) % sum));
    let leftover = total.saturating_sub(sizes.iter().sum());
    for &i in order.iter().take(leftover as usize) {
        sizes[i] += 1;
    }
    // No share exceeds `total`, which came from a u16.
    sizes.into_iter().map(|s| s as u16).collect()
}

/// Makes a split's weights equal to its children's current cells.
pub(super) fn rebase(children: &mut [Child], cells: &[u16]) {
    for (child, &len) in children.iter_mut().zip(cells) {
        child.weight = u32::from(len.max(1));
    }
}

pub(super) fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}
