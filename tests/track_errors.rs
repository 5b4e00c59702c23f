//! Every class of track error docs/DESIGN.md names ("Track files"), each asserting the
//! exact `path:line:col:` it is reported at.

use skid::track::{Dir, Mark, parse};
use std::fmt::Write;

/// The diagnostics for `src`, one string each.
fn errors(src: &str) -> Vec<String> {
    errors_of(src.as_bytes())
}

fn errors_of(bytes: &[u8]) -> Vec<String> {
    match parse("t.track", bytes) {
        Ok(_) => panic!("expected errors"),
        Err(e) => e.iter().map(ToString::to_string).collect(),
    }
}

/// The first diagnostic's `t.track:line:col` prefix.
fn at(src: &str) -> String {
    let e = errors(src);
    let parts: Vec<&str> = e[0].splitn(4, ':').collect();
    format!("{}:{}:{}", parts[0], parts[1], parts[2])
}

const MAP: &str = "\
##########
#........#
#.>..=...#
#........#
##########
";

fn with_front(front: &str) -> String {
    format!("+++\n{front}+++\n{MAP}")
}

#[test]
fn a_valid_file_with_every_feature_parses() {
    let src = "+++\nname = \"Full\"\nlaps = 2\ncell = 1.5\n[legend]\n\"%\" = \"mud\"\n\"*\" = \"wall\"\n\
        [surfaces.mud]\ngrip = 0.4\ndrag = 2\n[surfaces.ice]\ngrip = 0.05\n+++\n\
        ################\n#..............#\n#..>..<.1..2.=.#\n#.%%%%~~~::,, *#\n#...v.^........#\n#..............#\n################\n";
    let t = parse("full.track", src.as_bytes()).unwrap();
    assert_eq!((t.name.as_str(), t.laps, t.cell), ("Full", 2, 1.5));
    assert_eq!(t.checkpoints, 2);
    let dirs: Vec<Dir> = t.starts.iter().map(|s| s.dir).collect();
    assert_eq!(dirs, [Dir::East, Dir::West, Dir::South, Dir::North]);
    let mud = t.surface_of(3, 3).unwrap();
    assert_eq!((mud.name.as_str(), mud.grip, mud.drag), ("mud", 0.4, 2.0));
    assert_eq!(
        mud.rolling, t.surfaces[0].rolling,
        "unset numbers come from asphalt"
    );
    assert_eq!(
        t.surface_of(6, 3).unwrap().grip,
        0.05,
        "an override of a default surface"
    );
    assert!(t.surface_of(14, 3).is_none(), "'*' is a wall by the legend");
    assert_eq!(t.mark_of(8, 2), Mark::Checkpoint(1));
    assert_eq!(t.mark_of(13, 2), Mark::Finish);
    assert_eq!(
        t.surfaces_used(),
        ["asphalt", "grass", "gravel", "ice", "mud"],
        "every surface the map draws, in table order"
    );
}

#[test]
fn ragged_rows_are_padded_with_grass_and_crlf_is_accepted() {
    let src = "##########\r\n#.>..=...#\r\n#...\r\n##########\r\n";
    let t = parse("t.track", src.as_bytes()).unwrap();
    assert_eq!((t.width, t.height), (10, 4));
    assert_eq!(t.surface_of(8, 2).unwrap().name, "grass");
}

#[test]
fn unknown_character() {
    assert_eq!(
        errors("##########\n#.>..=...#\n#...@....#\n##########\n"),
        ["t.track:3:5: unknown character '@' (not in the legend)"]
    );
}

#[test]
fn a_tab_is_an_error_where_it_stands() {
    assert_eq!(
        at("##########\n#.>..=...#\n#..\t.....#\n##########\n"),
        "t.track:3:4"
    );
}

#[test]
fn no_start_slot() {
    assert_eq!(
        errors("########\n#..=...#\n########\n"),
        ["t.track:1:1: no start slot: put one of > < ^ v where the player starts"]
    );
}

#[test]
fn no_finish_line_is_reported_at_the_map_start_below_front_matter() {
    assert_eq!(
        errors("+++\nlaps = 1\n+++\n##########\n#.>......#\n##########\n"),
        ["t.track:4:1: no finish line: draw one across the track with '=' or '|'"]
    );
}

#[test]
fn a_start_on_a_wall() {
    // The legend turns '>' into a wall's neighbour: the slot at 2:2 has a
    // wall right in front of it.
    assert_eq!(at("##########\n#>#..=...#\n##########\n"), "t.track:2:2");
    // A start drawn over a wall by the legend is no start at all.
    let e = errors("+++\n[legend]\n\">\" = \"wall\"\n+++\n#######\n#.>.=.#\n#######\n");
    assert_eq!(
        e,
        ["t.track:5:1: no start slot: put one of > < ^ v where the player starts"]
    );
}

#[test]
fn checkpoint_numbers_with_a_gap() {
    assert_eq!(
        errors("################\n#.>..1..3..=...#\n#...........4..#\n################\n"),
        [
            "t.track:2:9: checkpoint 3 but no checkpoint 2: number checkpoints 1, 2, 3, ... without gaps"
        ]
    );
    assert_eq!(
        at("############\n#.>..2..=..#\n############\n"),
        "t.track:2:6"
    );
}

#[test]
fn unknown_front_matter_key() {
    let e = errors(&with_front("name = \"A\"\nlapz = 3\n"));
    assert!(
        e[0].starts_with("t.track:3:1: unknown field `lapz`"),
        "{e:?}"
    );
}

#[test]
fn laps_out_of_range_and_of_the_wrong_type() {
    assert_eq!(at(&with_front("laps = 0\n")), "t.track:2:8");
    assert_eq!(at(&with_front("laps = 100\n")), "t.track:2:8");
    let e = errors(&with_front("\nlaps = 2.5\n"));
    assert!(
        e[0].starts_with("t.track:3:8: invalid type: floating point"),
        "{e:?}"
    );
}

#[test]
fn cell_must_be_a_positive_finite_number() {
    for bad in ["0", "-2.0", "nan", "inf", "-inf", "1e9"] {
        let e = errors(&with_front(&format!("cell = {bad}\n")));
        assert_eq!(e.len(), 1, "{bad}: {e:?}");
        assert!(e[0].starts_with("t.track:2:8: cell = "), "{bad}: {e:?}");
    }
    assert!(
        parse("t.track", with_front("cell = 3\n").as_bytes()).is_ok(),
        "an integer is a number"
    );
}

#[test]
fn bad_toml_syntax_is_mapped_to_the_file_line() {
    let e = errors(&with_front("name = \"A\"\nlaps = = 3\n"));
    assert_eq!(e.len(), 1);
    assert!(e[0].starts_with("t.track:3:"), "{e:?}");
}

#[test]
fn unknown_surface_name_in_the_legend() {
    assert_eq!(
        errors(&with_front("[legend]\n\"%\" = \"lava\"\n")),
        [
            "t.track:3:7: unknown surface \"lava\" (known: wall, asphalt, grass, gravel, ice; define others under [surfaces.NAME])"
        ]
    );
}

#[test]
fn surface_overrides_are_validated() {
    assert_eq!(at(&with_front("[surfaces.ice]\ngrip = 9\n")), "t.track:3:8");
    assert_eq!(
        at(&with_front("[surfaces.ice]\nrolling = -1\n")),
        "t.track:3:11"
    );
    let e = errors(&with_front("[surfaces.\"a,b\"]\ngrip = 1\n"));
    assert!(
        e[0].starts_with("t.track:2:11: surface name \"a,b\""),
        "{e:?}"
    );
    let e = errors(&with_front("[surfaces.ice]\nfriction = 1\n"));
    assert!(
        e[0].starts_with("t.track:3:1: unknown field `friction`"),
        "{e:?}"
    );
}

#[test]
fn legend_keys_must_be_one_character() {
    assert_eq!(at(&with_front("[legend]\n\"\" = \"ice\"\n")), "t.track:3:1");
}

#[test]
fn a_name_must_be_printable() {
    assert_eq!(at(&with_front("name = \"a\\u001b[2Jb\"\n")), "t.track:2:8");
}

#[test]
fn invalid_utf8() {
    assert_eq!(
        errors_of(b"#####\n#>.=#\n##\xc3(##\n"),
        ["t.track:3:3: invalid UTF-8 (files must be UTF-8 text)"]
    );
}

#[test]
fn empty_maps() {
    assert_eq!(
        errors(""),
        ["t.track:1:1: empty map: draw the track below the front matter"]
    );
    assert_eq!(
        errors("+++\nlaps = 2\n+++\n\n\n"),
        ["t.track:4:1: empty map: draw the track below the front matter"]
    );
}

#[test]
fn oversized_maps() {
    let wide = format!("#>=.\n{}\n", ".".repeat(8193));
    assert_eq!(
        errors(&wide),
        ["t.track:2:8193: map too wide: more than 8192 columns"]
    );
    let tall = format!("+++\n+++\n{}", ">=.\n".repeat(8193));
    assert_eq!(
        errors(&tall),
        ["t.track:8195:1: map too tall: more than 8192 rows"]
    );
}

#[test]
fn unterminated_front_matter() {
    assert_eq!(
        errors("+++\nname = \"A\"\n#####\n"),
        ["t.track:1:1: front matter opened here is never closed (no second `+++` line)"]
    );
}

#[test]
fn all_problems_of_a_file_are_reported_at_once_in_file_order() {
    let src =
        "+++\nlaps = 0\n[legend]\n\"%\" = \"mud\"\n+++\n########\n#..x...#\n#.....\t#\n########\n";
    let e = errors(src);
    let positions: Vec<&str> = e.iter().map(|l| &l[..l.find(": ").unwrap()]).collect();
    assert_eq!(
        positions,
        [
            "t.track:2:8",
            "t.track:4:7",
            "t.track:6:1",
            "t.track:6:1",
            "t.track:7:4",
            "t.track:8:7"
        ],
        "{e:#?}"
    );
}

#[test]
fn a_flood_of_errors_is_cut_short() {
    let src = format!(">=\n{}\n", "@".repeat(500));
    let e = errors(&src);
    assert_eq!(e.len(), 51);
    assert!(
        e.last()
            .unwrap()
            .ends_with("too many errors; stopping here")
    );
}

/// A generated front matter of `n` sections or keys, each wrong, over a
/// good map.
fn flood_of_front_matter(n: usize, legend: bool) -> String {
    let mut body = String::new();
    for i in 0..n {
        let _ = if legend {
            writeln!(body, "\"k{i}\" = \"ice\"")
        } else {
            writeln!(body, "[surfaces.\"bad name {i}\"]\ngrip = 0.5")
        };
    }
    let table = if legend { "[legend]\n" } else { "" };
    format!("+++\n{table}{body}")
        + "+++\n##########\n#........#\n#.>..=...#\n#........#\n##########\n"
}

#[test]
fn a_flood_of_front_matter_errors_is_cut_short_too() {
    for legend in [true, false] {
        let e = errors(&flood_of_front_matter(32_000, legend));
        assert_eq!(e.len(), 51, "{:?}", &e[..3]);
        let first = if legend {
            "t.track:3:1: legend key \"k0\" must be exactly one printable character"
        } else {
            "t.track:2:11: surface name \"bad name 0\" must be a word of letters, digits, '-' or '_' (and not \"wall\")"
        };
        assert_eq!(e[0], first);
        assert!(e[50].ends_with("too many errors; stopping here"));
    }
}
