// OpenCC's dictionary groups by region: opencc-js publishes types for its core and presets only.
declare module 'opencc-js/from/*' {
  const groups: readonly import('opencc-js/core').DictGroup[];
  export default groups;
}
declare module 'opencc-js/to/*' {
  const groups: readonly import('opencc-js/core').DictGroup[];
  export default groups;
}
