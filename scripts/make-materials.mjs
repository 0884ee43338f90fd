// Makes the digital materials the catalogue sells (server/media/materials/<slug>.pdf) from the
// project's own text, with PDFKit: `node scripts/make-materials.mjs`. The files are committed, so
// `npm start` needs nothing else; run this again after changing a material's text. PDFKit's
// standard fonts (Helvetica) cover Portuguese; the dates inside are fixed so that the output is
// the same on every run.
import { createWriteStream, mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import PDFDocument from 'pdfkit'

const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'server', 'media', 'materials')
const BRAND = '#2f6b4f'
const CREATED = new Date('2026-11-27T00:00:00Z')

/** A table to fill in: a header row, then `rows` empty rows. */
function table(doc, columns, rows) {
  const left = doc.page.margins.left
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right
  const widths = columns.map((column) => column.share * width)
  const rowHeight = 22
  let y = doc.y + 6
  const drawRow = (cells, header) => {
    let x = left
    for (const [index, cell] of cells.entries()) {
      doc.rect(x, y, widths[index], rowHeight).lineWidth(0.6).stroke('#9bb5a8')
      if (header) doc.font('Helvetica-Bold').fontSize(8.5).fillColor('#1f2d27').text(cell, x + 4, y + 7, { width: widths[index] - 8, lineBreak: false })
      x += widths[index]
    }
    y += rowHeight
  }
  drawRow(
    columns.map((column) => column.title),
    true,
  )
  for (let row = 0; row < rows; row += 1) {
    if (y + rowHeight > doc.page.height - doc.page.margins.bottom) {
      doc.addPage()
      y = doc.page.margins.top
      drawRow(
        columns.map((column) => column.title),
        true,
      )
    }
    drawRow(
      columns.map(() => ''),
      false,
    )
  }
  doc.x = left
  doc.y = y + 10
}

function heading(doc, text) {
  doc.moveDown(0.6).font('Helvetica-Bold').fontSize(13).fillColor(BRAND).text(text).moveDown(0.3)
}

function paragraph(doc, text) {
  doc.font('Helvetica').fontSize(10.5).fillColor('#1f2d27').text(text, { align: 'left', lineGap: 2 }).moveDown(0.4)
}

function bullets(doc, items) {
  doc.font('Helvetica').fontSize(10.5).fillColor('#1f2d27').list(items, { bulletRadius: 2, lineGap: 2, textIndent: 10 }).moveDown(0.4)
}

function cover(doc, { title, subtitle }) {
  doc.rect(0, 0, doc.page.width, 110).fill(BRAND)
  doc.font('Helvetica-Bold').fontSize(22).fillColor('#ffffff').text(title, 50, 38, { width: doc.page.width - 100 })
  doc.font('Helvetica').fontSize(11).fillColor('#e6f2ec').text(subtitle, 50, 72, { width: doc.page.width - 100 })
  doc.x = doc.page.margins.left
  doc.y = 140
}

const MATERIALS = [
  {
    slug: 'diario-do-sono',
    title: 'Diário do sono',
    subtitle: 'Duas semanas para enxergar os seus padrões de sono · Innera, pilar Sono',
    body(doc) {
      paragraph(doc, 'Preencha uma linha por dia, de preferência pela manhã, ao acordar. Não há respostas certas: o diário serve para você e o seu profissional verem padrões, não para dar nota ao seu sono.')
      heading(doc, 'Como preencher')
      bullets(doc, [
        'Deitei: a hora em que foi para a cama. Dormi: a hora aproximada em que pegou no sono.',
        'Despertares: quantas vezes acordou durante a noite, e por quanto tempo, se lembrar.',
        'Acordei / levantei: a hora em que acordou de vez e a hora em que saiu da cama.',
        'Cafeína: café, chá preto ou mate, refrigerante de cola, energético, e a hora da última dose.',
        'Como me senti: de 1 (exausto) a 5 (descansado), e uma palavra sobre o dia.',
      ])
      heading(doc, 'Semana 1')
      const columns = [
        { title: 'Dia', share: 0.1 },
        { title: 'Deitei', share: 0.11 },
        { title: 'Dormi', share: 0.11 },
        { title: 'Despertares', share: 0.15 },
        { title: 'Acordei / levantei', share: 0.19 },
        { title: 'Cafeína', share: 0.16 },
        { title: 'Como me senti', share: 0.18 },
      ]
      table(doc, columns, 7)
      heading(doc, 'Semana 2')
      table(doc, columns, 7)
      heading(doc, 'Ao fim das duas semanas')
      bullets(doc, [
        'Em quantas noites você dormiu entre 7 e 9 horas?',
        'Os horários de deitar variaram mais de uma hora entre os dias úteis e o fim de semana?',
        'Houve relação entre a cafeína da tarde e os despertares?',
        'Leve o diário à sua próxima consulta.',
      ])
    },
  },
  {
    slug: 'guia-planejamento-refeicoes',
    title: 'Guia de planejamento de refeições',
    subtitle: 'Comida de verdade na rotina e no orçamento · Innera, pilar Alimento',
    body(doc) {
      paragraph(doc, 'Planejar a semana em 20 minutos economiza tempo, dinheiro e decisões cansadas às oito da noite. Este guia segue o Guia Alimentar para a População Brasileira: a base são alimentos in natura e minimamente processados.')
      heading(doc, 'O prato de todo dia')
      bullets(doc, [
        'Metade do prato: legumes e verduras, crus e cozidos, de cores diferentes.',
        'Um quarto: arroz, mandioca, batata, milho ou macarrão, de preferência integrais.',
        'Um quarto: feijão, lentilha ou grão-de-bico, e ovos, peixe, frango ou carne.',
        'Frutas inteiras na sobremesa e nos lanches; água para beber.',
      ])
      heading(doc, 'Cardápio da semana')
      table(
        doc,
        [
          { title: 'Dia', share: 0.14 },
          { title: 'Café da manhã', share: 0.22 },
          { title: 'Almoço', share: 0.22 },
          { title: 'Lanche', share: 0.18 },
          { title: 'Jantar', share: 0.24 },
        ],
        7,
      )
      heading(doc, 'Lista de compras da estação (primavera)')
      bullets(doc, ['Frutas: manga, abacaxi, morango, laranja-pera, banana.', 'Legumes: abobrinha, beterraba, cenoura, chuchu, vagem.', 'Verduras: alface, couve, rúcula, espinafre.', 'Básicos: arroz, feijão, ovos, aveia, azeite, alho e cebola.'])
      heading(doc, 'Marmitas em uma hora, no domingo')
      bullets(doc, [
        'Cozinhe uma panela de feijão e uma de arroz; congele em porções.',
        'Asse uma assadeira de legumes com azeite e ervas.',
        'Deixe folhas lavadas e secas em pote fechado, com papel-toalha.',
        'Monte as marmitas na hora de sair, para o prato não murchar.',
      ])
    },
  },
  {
    slug: 'diario-30-dias-menos-alcool',
    title: 'Diário de 30 dias: menos álcool',
    subtitle: 'Quando, quanto e por quê, no seu ritmo · Innera, pilar Substâncias',
    body(doc) {
      paragraph(doc, 'Este diário não julga: ele ajuda você a notar quando e por que bebe, e o que funciona como alternativa. Uma dose padrão tem cerca de 14 g de álcool: uma lata de cerveja (350 ml), uma taça de vinho (150 ml) ou uma dose de destilado (45 ml).')
      heading(doc, 'Minha meta para estes 30 dias')
      table(doc, [{ title: 'Escreva aqui, em uma frase, o que você quer mudar (por exemplo: não beber de segunda a quinta).', share: 1 }], 2)
      heading(doc, 'Registro diário')
      table(
        doc,
        [
          { title: 'Dia', share: 0.08 },
          { title: 'Doses', share: 0.1 },
          { title: 'Onde / com quem', share: 0.22 },
          { title: 'Gatilho', share: 0.22 },
          { title: 'O que fiz no lugar', share: 0.24 },
          { title: 'Humor (1-5)', share: 0.14 },
        ],
        30,
      )
      heading(doc, 'Ao fim de cada semana')
      bullets(doc, ['Quantas doses no total? Quantos dias sem beber?', 'Qual gatilho apareceu mais?', 'Qual alternativa funcionou melhor?', 'Se sentir que precisa de ajuda, fale com o seu profissional ou ligue para o CVV (188).'])
    },
  },
]

mkdirSync(OUT, { recursive: true })
for (const material of MATERIALS) {
  const doc = new PDFDocument({ size: 'A4', margins: { top: 50, bottom: 50, left: 50, right: 50 }, info: { Title: material.title, Author: 'Innera', Creator: 'Innera', CreationDate: CREATED, ModDate: CREATED }, lang: 'pt-BR' })
  const file = join(OUT, `${material.slug}.pdf`)
  doc.pipe(createWriteStream(file))
  cover(doc, material)
  material.body(doc)
  doc.end()
  console.log(`made ${file}`)
}
