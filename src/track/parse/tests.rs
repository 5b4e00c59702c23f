use super::*;

fn errors(src: &str) -> Vec<String> {
    match parse("t.track", src.as_bytes()) {
        Ok(_) => vec![],
        Err(e) => e.iter().map(ToString::to_string).collect(),
    }
}

const OK_MAP: &str = "##########\n#........#\n#.>..=...#\n#........#\n##########\n";

#[test]
fn a_plain_map_parses_with_defaults() {
    let t = parse("tracks/tiny.track", OK_MAP.as_bytes()).unwrap();
    assert_eq!((t.name.as_str(), t.laps, t.cell), ("tiny", 3, 2.0));
    assert_eq!((t.width, t.height), (10, 5));
    assert_eq!(
        t.starts,
        vec![Start {
            col: 2,
            row: 2,
            dir: Dir::East
        }]
    );
    assert_eq!(t.checkpoints, 0);
    assert_eq!(t.mark_of(5, 2), crate::track::Mark::Finish);
}

#[test]
fn front_matter_lines_count_from_the_file_start() {
    let src = format!("+++\nname = \"X\"\nlaps = 0\n+++\n{OK_MAP}");
    assert_eq!(
        errors(&src),
        ["t.track:3:8: laps = 0 is out of range: a whole number of laps from 1 to 99"]
    );
}

#[test]
fn a_huge_number_reads_short_in_its_error() {
    let src = format!("+++\ncell = 1e300\n+++\n{OK_MAP}");
    assert_eq!(
        errors(&src),
        [
            "t.track:2:8: cell = 1e300 is out of range: a positive finite number of metres from 0.25 to 100"
        ]
    );
}

#[test]
fn legend_keys_are_positioned() {
    let src = format!("+++\n[legend]\n\"ab\" = \"ice\"\n+++\n{OK_MAP}");
    assert_eq!(
        errors(&src),
        ["t.track:3:1: legend key \"ab\" must be exactly one printable character"]
    );
}
