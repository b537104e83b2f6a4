//! Properties of the `linear` engine / rule system.

use crate::catalogue::Property;

/// The `linear` properties.
pub fn properties() -> Vec<Property> {
    Vec::new()
}
