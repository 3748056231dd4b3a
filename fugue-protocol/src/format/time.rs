//! strftime(3) in the C locale over a Unix time and a UTC offset, without libc (this
//! crate does no I/O; the caller's context gives the time and the local offset).

/// A broken-down time.
struct Tm {
    year: i64,
    mon: u32, // 1..=12
    day: u32, // 1..=31
    hour: i64,
    min: i64,
    sec: i64,
    wday: i64, // 0 = Sunday
    yday: i64, // 0-based
    epoch: i64,
    offset: i64,
}

const DAYS: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];
const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// Howard Hinnant's days-to-civil: the date of a day number (0 = 1970-01-01).
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (
        y,
        u32::try_from(m).unwrap_or(1),
        u32::try_from(d).unwrap_or(1),
    )
}

fn leap(y: i64) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

fn tm(t: i64, offset: i64) -> Tm {
    // Times far outside any calendar are clamped (±10^12 s is ±31,000 years).
    let local = t.clamp(-1_000_000_000_000, 1_000_000_000_000) + offset.clamp(-86_400, 86_400);
    let days = local.div_euclid(86_400);
    let secs = local.rem_euclid(86_400);
    let (year, mon, day) = civil(days);
    let before: [i64; 12] = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];
    let yday = before[(mon - 1) as usize] + i64::from(day) - 1 + i64::from(mon > 2 && leap(year));
    Tm {
        year,
        mon,
        day,
        hour: secs / 3600,
        min: secs % 3600 / 60,
        sec: secs % 60,
        wday: (days + 4).rem_euclid(7),
        yday,
        epoch: t,
        offset,
    }
}

/// strftime(3) of `fmt` at `t` (seconds since the epoch) in a zone `offset` seconds
/// east of UTC. Conversions it does not know are kept as written.
pub fn strftime(fmt: &str, t: i64, offset: i64) -> String {
    let tm = tm(t, offset);
    let mut out = String::with_capacity(fmt.len() + 16);
    let mut chars = fmt.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let Some(k) = chars.next() else {
            out.push('%');
            break;
        };
        convert(&mut out, &tm, k);
    }
    out
}

fn convert(out: &mut String, tm: &Tm, k: char) {
    let h12 = if tm.hour % 12 == 0 { 12 } else { tm.hour % 12 };
    let wd = tm.wday as usize % 7;
    let mo = (tm.mon as usize + 11) % 12;
    let s = match k {
        'a' => DAYS[wd][..3].to_string(),
        'A' => DAYS[wd].to_string(),
        'b' | 'h' => MONTHS[mo][..3].to_string(),
        'B' => MONTHS[mo].to_string(),
        'c' => strftime("%a %b %e %H:%M:%S %Y", tm.epoch, tm.offset),
        'C' => format!("{:02}", tm.year.div_euclid(100)),
        'd' => format!("{:02}", tm.day),
        'D' => strftime("%m/%d/%y", tm.epoch, tm.offset),
        'e' => format!("{:2}", tm.day),
        'F' => strftime("%Y-%m-%d", tm.epoch, tm.offset),
        'H' => format!("{:02}", tm.hour),
        'I' => format!("{h12:02}"),
        'j' => format!("{:03}", tm.yday + 1),
        'k' => format!("{:2}", tm.hour),
        'l' => format!("{h12:2}"),
        'm' => format!("{:02}", tm.mon),
        'M' => format!("{:02}", tm.min),
        'n' => "\n".to_string(),
        'p' => if tm.hour < 12 { "AM" } else { "PM" }.to_string(),
        'P' => if tm.hour < 12 { "am" } else { "pm" }.to_string(),
        'r' => strftime("%I:%M:%S %p", tm.epoch, tm.offset),
        'R' => strftime("%H:%M", tm.epoch, tm.offset),
        's' => tm.epoch.to_string(),
        'S' => format!("{:02}", tm.sec),
        't' => "\t".to_string(),
        'T' => strftime("%H:%M:%S", tm.epoch, tm.offset),
        'u' => (if tm.wday == 0 { 7 } else { tm.wday }).to_string(),
        'w' => tm.wday.to_string(),
        'x' => strftime("%m/%d/%y", tm.epoch, tm.offset),
        'X' => strftime("%H:%M:%S", tm.epoch, tm.offset),
        'y' => format!("{:02}", tm.year.rem_euclid(100)),
        'Y' => tm.year.to_string(),
        'z' => {
            let sign = if tm.offset < 0 { '-' } else { '+' };
            let a = tm.offset.abs();
            format!("{sign}{:02}{:02}", a / 3600, a % 3600 / 60)
        }
        '%' => "%".to_string(),
        other => format!("%{other}"),
    };
    out.push_str(&s);
}

/// tmux's `t/p`: a short time, less precise the older it is.
pub fn pretty(t: i64, now: i64, offset: i64, now_offset: i64) -> String {
    let now = now.max(t);
    let age = now.saturating_sub(t);
    let (a, n) = (tm(t, offset), tm(now, now_offset));
    if age < 24 * 3600 {
        return strftime("%H:%M", t, offset);
    }
    if (a.year == n.year && a.mon == n.mon) || age < 28 * 24 * 3600 {
        return strftime("%a%d", t, offset);
    }
    if (a.year == n.year && a.mon < n.mon) || (a.year == n.year - 1 && a.mon > n.mon) {
        return strftime("%d%b", t, offset);
    }
    strftime("%h%y", t, offset)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_known_times() {
        // 2015-10-25 09:25:02 UTC, tmux's manual's example.
        assert_eq!(strftime("%c", 1_445_765_102, 0), "Sun Oct 25 09:25:02 2015");
        assert_eq!(
            strftime("%Y-%m-%d %H:%M:%S %j %u %%", 1_445_765_102, 0),
            "2015-10-25 09:25:02 298 7 %"
        );
        assert_eq!(
            strftime("%d-%b-%y %I%p %z", 0, 3600),
            "01-Jan-70 01AM +0100"
        );
        assert_eq!(strftime("%F", 951_782_400, 0), "2000-02-29");
        assert_eq!(strftime("%Q %", 0, 0), "%Q %");
        assert_eq!(strftime("%e|%k", 0, 0), " 1| 0");
    }

    #[test]
    fn pretty_times() {
        let now = 1_445_765_102;
        assert_eq!(pretty(now - 60, now, 0, 0), "09:24");
        assert_eq!(pretty(now - 3 * 86_400, now, 0, 0), "Thu22");
        assert_eq!(pretty(now - 60 * 86_400, now, 0, 0), "26Aug");
        assert_eq!(pretty(now - 400 * 86_400, now, 0, 0), "Sep14");
    }
}
