/** Level 3, map validation against message implementation guides (EANCOM and one's own). */
export {
  indexGuides,
  parseGuide,
  type Guide,
  type GuideElementRule,
  type GuideIndex,
  type GuideSegmentRule,
  type GuideStatus,
} from './guide.ts';
export { createMapLevel, findUnresolvedGuideKeys, validateMap, type MapLevelOptions } from './map-level.ts';
