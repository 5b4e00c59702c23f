//! A generated track's name, made from its seed: an adjective and a
//! place, such as "Copper Hollow". The lists are part of the generator:
//! changing them is a new generator version.

use super::rng::Rng;

const FIRST: [&str; 32] = [
    "Amber", "Ashen", "Blue", "Broken", "Cedar", "Cinder", "Copper", "Crooked", "Dusty", "Eastern",
    "Falcon", "Frozen", "Golden", "Granite", "Hollow", "Iron", "Jade", "Lantern", "Lost", "Misty",
    "Northern", "Old", "Quiet", "Red", "Rusty", "Salt", "Silver", "Stone", "Thunder", "Twin",
    "Western", "Wild",
];

const SECOND: [&str; 32] = [
    "Bay", "Bend", "Bluff", "Canyon", "Cove", "Creek", "Crossing", "Dunes", "Falls", "Fen",
    "Fjord", "Forest", "Gap", "Glen", "Harbour", "Heath", "Hills", "Hollow", "Lagoon", "Loop",
    "Marsh", "Mesa", "Mill", "Moor", "Pass", "Ridge", "Ring", "Run", "Spur", "Valley", "Vale",
    "Works",
];

/// The name for a track whose generator stream is `rng`.
pub fn name(rng: &mut Rng) -> String {
    let first = FIRST[rng.below(FIRST.len() as u64) as usize];
    let mut second = SECOND[rng.below(SECOND.len() as u64) as usize];
    if second == first {
        second = "Ring";
    }
    format!("{first} {second}")
}
