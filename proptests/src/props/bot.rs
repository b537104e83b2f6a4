//! Properties of the `bot` engine / rule system.

use crate::catalogue::Property;

/// The `bot` properties.
pub fn properties() -> Vec<Property> {
    Vec::new()
}
