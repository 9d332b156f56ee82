//! Where the peer section sits in `docs/BENCHMARKS.md`: between two markers, so that a `--peers` run
//! replaces it in place and the main benchmark keeps it when it rewrites the file.

/// The markers around the peer section in `docs/BENCHMARKS.md`.
pub const BEGIN: &str = "<!-- bench --peers: begin -->";
/// See [`BEGIN`].
pub const END: &str = "<!-- bench --peers: end -->";

/// `report` with its peer section replaced by `section` (appended when it has none).
pub fn splice(report: &str, section: &str) -> String {
    match (report.find(BEGIN), report.find(END)) {
        (Some(b), Some(e)) if e > b => {
            format!(
                "{}{}{}",
                &report[..b],
                section,
                &report[e + END.len()..].trim_start_matches('\n')
            )
        }
        _ => format!("{}\n\n{section}", report.trim_end()),
    }
}

/// The peer section of `report`, if it has one (so the main benchmark keeps it when it rewrites the file).
pub fn section_of(report: &str) -> Option<&str> {
    let b = report.find(BEGIN)?;
    let e = report.find(END)?;
    (e > b).then(|| &report[b..e + END.len()])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_section_is_replaced_in_place_or_appended() {
        let section = format!("{BEGIN}\nnew\n{END}\n");
        let with = format!("# B\n\n{BEGIN}\nold\n{END}\n\n## After\n");
        assert_eq!(
            splice(&with, &section),
            format!("# B\n\n{section}## After\n")
        );
        assert_eq!(splice("# B\n", &section), format!("# B\n\n{section}"));
        assert_eq!(
            section_of(&with),
            Some(format!("{BEGIN}\nold\n{END}").as_str())
        );
        assert_eq!(section_of("# B"), None);
    }
}
