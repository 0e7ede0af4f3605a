enum HarnessPlaceholder {}
