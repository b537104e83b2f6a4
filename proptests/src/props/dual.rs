//! Properties of the `dual` engine / rule system.

use crate::catalogue::Property;

/// The `dual` properties.
pub fn properties() -> Vec<Property> {
    Vec::new()
}
