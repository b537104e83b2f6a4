//! `specs/theorems.md` and the property catalogue must agree: every property the file
//! marks `implemented` exists in `adora_proptests::catalogue()`, and every catalogue
//! property is cited in the file as implemented.

use std::collections::BTreeSet;

/// Property names (`area/kebab-name`) cited on the rows of `theorems.md` whose status
/// column starts with `implemented`.
fn implemented_in_file() -> BTreeSet<String> {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/specs/theorems.md")).unwrap();
    let mut names = BTreeSet::new();
    for line in text.lines().filter(|l| l.starts_with('|')) {
        let cells: Vec<&str> = line.split(" | ").collect();
        let status = cells
            .last()
            .map(|c| c.trim_end_matches('|').trim())
            .unwrap_or("");
        if !status.starts_with("implemented") {
            continue;
        }
        // The property column is the one that names properties in backticks.
        for cell in &cells {
            // Names after "cf." are cross-references, not the checking property.
            let cell = cell.split("cf.").next().unwrap_or("");
            for (k, part) in cell.split('`').enumerate() {
                let is_name = k % 2 == 1
                    && part.contains('/')
                    && part.chars().all(|c| {
                        c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '/' | '.')
                    });
                if is_name && cell.trim_start_matches("| ").starts_with('`') {
                    names.insert(part.to_string());
                }
            }
        }
    }
    names
}

#[test]
fn theorem_catalogue_matches_the_property_catalogue() {
    let in_file = implemented_in_file();
    let in_code: BTreeSet<String> = adora_proptests::catalogue::catalogue()
        .iter()
        .map(|p| p.name.to_string())
        .collect();
    let missing_in_code: Vec<_> = in_file.difference(&in_code).collect();
    let missing_in_file: Vec<_> = in_code.difference(&in_file).collect();
    assert!(
        missing_in_code.is_empty(),
        "marked implemented in specs/theorems.md but not in the catalogue: {missing_in_code:?}"
    );
    assert!(
        missing_in_file.is_empty(),
        "in the catalogue but not cited as implemented in specs/theorems.md: {missing_in_file:?}"
    );
}
