import type { WordPressServerOptions } from './wordpress-stand-in.ts';

/** What the demo shop knows about each plant it writes about (the guides' own facts, so no two pages read alike). */
export const PLANTS = [
  { topic: 'roses', plant: 'Roses', short: 'Rose', when: 'late winter, just as the buds swell', soil: 'deep, rich loam that holds moisture', light: 'at least six hours of sun', tip: 'Feed them after the first flush of flowers and again in midsummer.', trouble: 'black spot, which spreads from leaves left on the ground over winter', varieties: 'the shrub rose \'Gertrude Jekyll\', the climber \'Madame Alfred Carrière\' for a north wall and the rambler \'Rambling Rector\' for an old tree', prune: 'Prune bush roses hard in February, to an outward-facing bud about a hand\'s width above the ground; tie climbers in sideways so they flower along their length.' },
  { topic: 'tulips', plant: 'Tulips', short: 'Tulip', when: 'November, once the soil has cooled', soil: 'free-draining soil with grit worked in', light: 'full sun', tip: 'Plant the bulbs three times as deep as they are tall.', trouble: 'tulip fire, a grey mould that thrives in wet springs', varieties: 'the late purple \'Queen of Night\', the fringed \'Ballerina\' and the small species tulip Tulipa sylvestris, which comes back every year', prune: 'Snap off the seed heads as the petals fall so the bulb puts its strength into next year, and leave the leaves until they yellow.' },
  { topic: 'hedges', plant: 'Hedges', short: 'Hedge', when: 'the dormant months, from November to March', soil: 'ground dug over a metre wide along the line', light: 'sun or light shade, depending on the species', tip: 'Cut the sides so the hedge is wider at the base than at the top.', trouble: 'gaps at the base where the lower branches were shaded out', varieties: 'beech and hornbeam, which hold their brown leaves through winter, yew for a dark formal line and a mixed native hedge of hawthorn, hazel and field maple for birds', prune: 'Trim formal hedges once in late summer, after the birds have finished nesting, and cut new hedges back by a third after planting so they branch from the base.' },
  { topic: 'dahlias', plant: 'Dahlias', short: 'Dahlia', when: 'late May, once the danger of frost has passed', soil: 'rich soil with plenty of well-rotted manure', light: 'full sun and shelter from strong wind', tip: 'Pinch out the growing tips when the plants are a foot tall to make them branch.', trouble: 'slugs, which can strip young shoots overnight', varieties: 'the dark-leaved \'Bishop of Llandaff\', the small pompon \'Franz Kafka\' and the tall cactus dahlia \'Hillcrest Royal\' for cutting', prune: 'Deadhead every week from July to keep the flowers coming, and cut the stems down to a few inches after the first frost blackens the leaves.' },
  { topic: 'peonies', plant: 'Peonies', short: 'Peony', when: 'autumn, while the soil is still warm', soil: 'deep, fertile soil that drains well', light: 'full sun or the lightest shade', tip: 'Plant the crowns no more than two inches deep, or they will not flower.', trouble: 'peony wilt, a grey mould that makes young shoots collapse in spring', varieties: 'the old double \'Sarah Bernhardt\', the single \'Bowl of Beauty\' and the tree peony Paeonia lutea for a larger border', prune: 'Cut herbaceous peonies to the ground in autumn and clear the leaves away; tree peonies need only their dead wood removed in spring.' },
  { topic: 'herbs', plant: 'Kitchen herbs', short: 'Herb', when: 'April and May, after the last frosts', soil: 'poor, gritty soil for the Mediterranean herbs', light: 'a warm, sunny spot near the kitchen door', tip: 'Pick often: regular cutting keeps basil and mint bushy.', trouble: 'rosemary beetle on rosemary, lavender and sage', varieties: 'common thyme and sage for the border, flat-leaved parsley and chives in pots, and mint kept in a sunken bucket so it cannot run', prune: 'Shear thyme and sage lightly after flowering, and cut chives to the ground in midsummer for a second crop of leaves.' },
  { topic: 'apple-trees', plant: 'Apple trees', short: 'Apple tree', when: 'bare-root season, November to March', soil: 'well-drained soil with no standing water in winter', light: 'a sheltered, sunny position', tip: 'Choose a partner variety from the same pollination group.', trouble: 'scab, which marks the fruit but rarely harms the tree', varieties: 'the dessert apple \'Egremont Russet\', the reliable cooker \'Bramley\'s Seedling\' and \'Sunset\' on a dwarfing rootstock for a small garden', prune: 'Prune free-standing trees in winter, taking out crossing and crowded branches to open the centre; prune cordons and espaliers in August.' },
  { topic: 'clematis', plant: 'Clematis', short: 'Clematis', when: 'late summer or early autumn, into moist soil', soil: 'rich soil with the roots kept cool and shaded', light: 'sun for the flowers, shade for the roots', tip: 'Plant them a few inches deeper than they sat in the pot, so new shoots come from below ground.', trouble: 'clematis wilt, when a whole stem collapses in a day', varieties: 'the spring-flowering Clematis montana for a large fence, the purple \'Jackmanii\' and the small-flowered \'Etoile Violette\', which never gets wilt', prune: 'Prune according to the group on the label: early flowerers only after flowering, late flowerers hard back to a pair of buds in February.' },
  { topic: 'ferns', plant: 'Ferns', short: 'Fern', when: 'spring, as the new fronds unfurl', soil: 'leafy, humus-rich soil that never dries out', light: 'dappled or full shade', tip: 'Leave last year\'s fronds until spring: they protect the crown from frost.', trouble: 'scorched fronds when the sun reaches them at midday', varieties: 'the evergreen hart\'s-tongue fern, the soft shield fern for dry shade and the tall royal fern beside water', prune: 'Cut the old fronds to the base in early spring, just before the new ones unroll, and take care not to snap the young croziers.' },
  { topic: 'bulbs', plant: 'Spring bulbs', short: 'Bulb', when: 'September and October for daffodils and crocuses', soil: 'any soil that does not stay waterlogged', light: 'sun, or under deciduous trees that leaf out late', tip: 'Let the leaves die back for six weeks before tidying them.', trouble: 'squirrels digging up freshly planted crocuses', varieties: 'the small daffodil \'Tête-à-tête\', snowdrops bought in the green and the blue Siberian squill for naturalising in grass', prune: 'Deadhead daffodils as they fade, feed clumps with a high-potash fertiliser after flowering and lift and divide crowded clumps every few years.' },
  { topic: 'lavender', plant: 'Lavender', short: 'Lavender', when: 'late spring, into soil that has warmed', soil: 'poor, chalky or sandy soil with sharp drainage', light: 'the hottest, sunniest spot in the garden', tip: 'Trim it straight after flowering, but never into the old wood.', trouble: 'woody, splaying plants after years without pruning', varieties: 'the compact English lavender \'Hidcote\', the taller \'Grosso\' for cutting and drying and French lavender for pots on a warm patio', prune: 'Cut back in late August, taking off the flower stalks and an inch of leafy growth, so the plant stays a tight mound.' },
  { topic: 'hydrangeas', plant: 'Hydrangeas', short: 'Hydrangea', when: 'spring or autumn, when the ground is moist', soil: 'moisture-retentive soil; acid soil turns some flowers blue', light: 'morning sun and afternoon shade', tip: 'Leave the faded mopheads on over winter to shield the buds below.', trouble: 'wilting on hot afternoons, which a deep watering cures', varieties: 'the white \'Annabelle\', the climbing Hydrangea petiolaris for a shady wall and the lacecap \'Blue Wave\'', prune: 'In March cut mopheads back to the first pair of fat buds below the old flower; cut \'Annabelle\' down to a frame of short stems.' },
];

const p = (...sentences: string[]) => `<p>${sentences.join(' ')}</p>`;

function guide(plant: (typeof PLANTS)[number], index: number) {
  const name = plant.plant.toLowerCase();
  return {
    type: 'page' as const,
    slug: `guides/${plant.topic}`,
    // One guide's title runs far past what a results page shows: a finding for the audit.
    title: index === 0 ? `Growing ${name} in a small garden: the complete guide for beginners and experienced gardeners alike` : `${plant.plant}: a growing guide`,
    content: [
      p(`${plant.plant} repay a little planning.`, `Our nursery team has grown ${name} in the clay of the Weald for thirty years, and this guide sets out what works for us, from choosing the right plants to the first season after planting.`),
      `<h2>Choosing ${name}</h2>`,
      p(`For most gardens we suggest ${plant.varieties}.`, `Ask us if you are unsure: we will tell you honestly what suits your soil, your space and the time you have for looking after ${name}.`),
      `<h2>When and where to plant</h2>`,
      p(`The best time to plant ${name} is ${plant.when}.`, `Give them ${plant.light} and ${plant.soil}.`, `Water well after planting and keep the ground moist for the first season, when ${name} are making new roots.`),
      `<h2>Planting step by step</h2>`,
      `<ol><li>Clear the ground of weeds and grass where the ${name} will go.</li><li>Dig in a bucket of garden compost for every square metre of ${name}.</li><li>Set the ${name} at the depth our label gives and firm the soil around them with your heel.</li><li>Water the ${name} in thoroughly, even if rain is forecast.</li></ol>`,
      `<h2>Everyday care</h2>`,
      p(plant.tip, `A mulch of garden compost each spring keeps the roots of ${name} cool and the weeds down.`),
      // The first guide shows its photograph without a text alternative, and another links a guide that was taken down.
      index === 0 ? `<p><img src="/wp-content/uploads/${plant.topic}-border.jpg" width="800" height="533"></p>` : '',
      index === 1 ? p(`Planting ${name} for spring colour indoors too? Our <a href="/guides/orchids/">orchid guide</a> covers the houseplants that flower at the same time.`) : '',
      p(`Read our <a href="/guides/${plant.topic}/care/">${name} care guide</a> for pruning, feeding and the problems to look out for.`),
    ].join('\n'),
  };
}

function care(plant: (typeof PLANTS)[number]) {
  const name = plant.plant.toLowerCase();
  return {
    type: 'page' as const,
    slug: `guides/${plant.topic}/care`,
    title: `${plant.short} care: pruning and problems`,
    content: [
      p(`Once ${name} are established they need less of you than you might think.`, `This page covers the jobs that make the difference to ${name} through the year, and the problems our customers ask us about most often.`),
      `<h2>Pruning and tidying</h2>`,
      p(plant.prune, `Use clean, sharp tools, and burn or bin anything diseased rather than composting it near your ${name}.`),
      `<h2>Feeding and watering</h2>`,
      p(`Water ${name} deeply once a week in dry weather rather than a little every day: deep roots make tougher plants.`, `A balanced granular feed in spring is enough for ${name} in most gardens; in pots, add a liquid feed every fortnight from May to August.`),
      `<h2>Common problems</h2>`,
      p(`The problem we are asked about most is ${plant.trouble}.`, `Catch it early, clear away affected growth and ${name} usually recover within a season.`, `If a problem comes back every year, bring a sample to the nursery and we will look at it with you.`),
      `<h2>Through the seasons</h2>`,
      p(`In spring, check ${name} for winter damage and mulch while the soil is moist.`, `In summer, water in the evening and watch for pests.`, `In autumn, clear fallen leaves from around ${name}, and in winter, firm in any plants the frost has lifted.`),
      p(`Back to our <a href="/guides/${plant.topic}/">${name} growing guide</a>.`),
    ].join('\n'),
  };
}

/**
 * The demo's website: a small garden shop on WordPress (the local stand-in that speaks
 * WordPress's REST wire format), with the flaws real sites have: most pages without a meta
 * description, one title far too long, a photograph without a text alternative whose file
 * is gone, a link to a guide that was taken down, and a contact page with almost nothing on
 * it. Its guides are the pages the demo's search data is about.
 */
export function demoSiteContent(): WordPressServerOptions {
  const pages = PLANTS.flatMap((plant, i) => [guide(plant, i), care(plant)]);
  const index = PLANTS.map((plant) => `<li><a href="/guides/${plant.topic}/">${plant.plant}</a></li>`).join('');
  return {
    siteName: 'Demo Garden Shop',
    frontPage: 'home',
    items: [
      {
        type: 'page', slug: 'home', title: 'Plants, bulbs and garden advice from Kent',
        content: [
          p('Demo Garden Shop is a family nursery near Tunbridge Wells.', 'We grow most of what we sell on our four acres and post it across the United Kingdom within three working days.'),
          `<h2>Growing guides</h2><ul>${index}</ul>`,
          p('Every plant we send has been grown outside in Kent, so it is used to an English winter before it reaches you.', 'Our guides are written by the people who raise the plants, and each one says plainly what a plant needs and what can go wrong.'),
          p('Most of our customers garden on heavy clay or chalk, and many have only a small plot or a balcony.', 'That is why every guide says which varieties stay compact, which cope with poor soil and which will grow happily in a pot.'),
          p('Not sure what will thrive in your garden?', 'Read <a href="/about/">about the nursery</a>, see <a href="/delivery/">how delivery works</a>, or call in on a weekend and walk the beds with one of our growers.'),
        ].join('\n'),
        // The home page is the one page whose description someone wrote.
        meta: { sos_meta_description: 'A family nursery in Kent growing roses, bulbs, hedging and herbs, with growing guides written by the people who raise the plants.' },
      },
      {
        type: 'page', slug: 'about', title: 'About the nursery',
        content: [
          p('The nursery was started in 1994 by Ann and Peter Hale on a former hop farm.', 'Today eleven people work here, most of them trained at Hadlow College.'),
          p('We grow without peat, collect rainwater from the glasshouse roofs and compost every scrap of green waste the nursery produces.'),
          p('Visitors are welcome from Wednesday to Sunday, nine until five, and the tea room opens at weekends from Easter to October.'),
          p('Our growers answer questions by telephone and e-mail all year round, and each spring we run free Saturday workshops on pruning, propagation and planting for wildlife.'),
          p('We sell only plants we have grown or trialled ourselves for at least two seasons, which is why our range is smaller than a garden centre\'s: it is the range we can stand behind.'),
        ].join('\n'),
      },
      {
        type: 'page', slug: 'delivery', title: 'Delivery and returns',
        content: [
          p('Orders placed before noon leave the nursery the next working day, packed in recycled cardboard and wool.'),
          p('Delivery costs £6.95 and is free on orders over £60.', 'Bare-root plants are sent only between November and March, while they are dormant.'),
          p('If a plant arrives damaged, send us a photograph within seven days and we will replace it or refund you.'),
          p('Large trees and hedging bundles travel on our own van to addresses within forty miles of the nursery; further afield they go by a specialist plant carrier, who will telephone the day before to agree a time.'),
          p('Plants can sit in their box for two or three days if the weather is too cold or wet to plant.', 'Open the top, stand the box somewhere cool and light, and water the pots if the compost feels dry.', 'Bare-root plants keep for a week or more if you heel them into a spare patch of soil.'),
          p('You can return unopened sundries within thirty days for a full refund; living plants cannot be returned unless they arrived damaged or were not what you ordered.'),
        ].join('\n'),
      },
      { type: 'page', slug: 'contact', title: 'Contact', content: p('Call us on 01892 000000.') },
      ...pages,
    ],
  };
}
